/**
 * The one reading of "is this CI", the way the ecosystem's detectors (`ci-info`, `is-ci`) read it:
 * `CI` set to anything but empty, `false` or `0` is CI; `CI=false` (or `0`) says it is not, even
 * where a vendor's variable is set — except on GitHub Actions, whose runner has no terminal
 * whatever `CI` says (`CI=false npm run build` is a common way to silence warnings-as-errors);
 * with `CI` unset or empty, a vendor's own variable decides.
 */
export interface CiEnvironment {
  ci: boolean;
  /** GitHub Actions in particular: annotations, step outputs, the runner's workflow commands. */
  github: boolean;
}

/** Vendors that set their own variable (some of them without `CI`). */
const VENDOR_VARIABLES = [
  'GITLAB_CI',
  'BUILDKITE',
  'CIRCLECI',
  'TRAVIS',
  'JENKINS_URL',
  'TF_BUILD',
  'TEAMCITY_VERSION',
  'BITBUCKET_BUILD_NUMBER',
  'CODEBUILD_BUILD_ARN',
  'CONTINUOUS_INTEGRATION',
] as const;

const NOT_CI = ['false', '0'];

export function detectCi(env: NodeJS.ProcessEnv): CiEnvironment {
  const github = env.GITHUB_ACTIONS === 'true';
  const declared = env.CI?.trim().toLowerCase();
  if (github) return { ci: true, github };
  if (declared !== undefined && declared !== '') return { ci: !NOT_CI.includes(declared), github };
  const vendor = VENDOR_VARIABLES.some((name) => {
    const value = env[name]?.trim().toLowerCase();
    return value !== undefined && value !== '' && !NOT_CI.includes(value);
  });
  return { ci: vendor, github };
}

/** Whether this is a CI job (see detectCi). */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  return detectCi(env).ci;
}
