import { RalphError } from '../errors.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.js';
import type { CiProvider } from './ci-providers.js';

/** What the generated workflow installs by default: this package, at the version that wrote it. */
export function defaultInstallSpec(): string {
  return `${PACKAGE_NAME}@${PACKAGE_VERSION}`;
}

/**
 * The `--install` spec, checked before anything is written: it goes into the workflow's
 * `npm install -g` line, so it must be one non-empty line, and it only means something with `--ci`.
 */
export function checkInstallSpec(
  spec: string | undefined,
  ci: CiProvider | undefined,
  vendor = false,
): string | undefined {
  if (vendor && spec !== undefined)
    throw new RalphError(
      'usage',
      '--vendor and --install both say what the workflow installs',
      'give one: --vendor packs this ralph into ralph/vendor/, --install names a spec',
    );
  if (vendor && ci === undefined)
    throw new RalphError('usage', '--vendor needs --ci: it sets what the CI workflow installs', 'add --ci github');
  if (spec === undefined) return undefined;
  const fix = 'give one npm install spec, e.g. --install github:you/ralph#v1.2.0 or --install ./ralph.tgz';
  if (ci === undefined)
    throw new RalphError(
      'usage',
      '--install needs --ci: it sets what the CI workflow installs',
      `add --ci github, or drop --install`,
    );
  if (spec.trim() === '') throw new RalphError('usage', '--install is empty', fix);
  if (/[\r\n]/.test(spec)) throw new RalphError('usage', '--install contains a line break', fix);
  return spec.trim();
}

/**
 * What follows `npm install -g ` in the workflow's install step. A git spec cannot be installed
 * with `-g` (npm/cli#8440: npm loses the clone it is building), so the workflow packs it first,
 * into $RUNNER_TEMP so that the tarball never dirties the checkout ralph is about to refuse.
 */
export function installArgument(spec: string): string {
  const word = shellWord(spec);
  if (!isGitSpec(spec)) return word;
  return `"$RUNNER_TEMP/$(npm pack --silent --pack-destination "$RUNNER_TEMP" ${word} | tail -n 1)"`;
}

/** The git forms npm-package-arg reads as git: a git URL, a host shortcut, or `owner/repo[#ref]`. */
export function isGitSpec(spec: string): boolean {
  return (
    /^(git\+|git:\/\/|github:|gitlab:|bitbucket:|gist:)/i.test(spec) ||
    /^https?:\/\/\S+\.git(#.*)?$/i.test(spec) ||
    (/^[\w.-]+\/[\w.-]+(#.+)?$/.test(spec) && !spec.startsWith('.') && !/\.(tgz|tar\.gz|tar)$/i.test(spec))
  );
}

/** The spec as one shell word for the workflow's `run:` script: quoted unless it is plainly safe. */
export function shellWord(spec: string): string {
  return /^[\w@./:+#~=^-]+$/.test(spec) ? spec : `'${spec.replace(/'/g, `'\\''`)}'`;
}
