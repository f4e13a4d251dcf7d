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

/** The spec as one shell word for the workflow's `run:` script: quoted unless it is plainly safe. */
export function shellWord(spec: string): string {
  return /^[\w@./:+#~=^-]+$/.test(spec) ? spec : `'${spec.replace(/'/g, `'\\''`)}'`;
}
