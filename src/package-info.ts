import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The package's own name and version, read once from package.json: the one place that names
 * ralph on the npm registry. Everything else (the CI workflow's install step, the Stop hook's
 * npx form, --version) takes them from here, so a rename is a one-line change.
 */
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
  bugs?: { url?: string };
};

/** Where ralph is installed: the folder of its package.json, links resolved (Node loads modules by their real path). */
export const PACKAGE_ROOT: string = fileURLToPath(new URL('..', import.meta.url));

/** The npm package name (`npm install -g <PACKAGE_NAME>`); the command it installs is `ralph`. */
export const PACKAGE_NAME: string = manifest.name;

/** The version of this build. */
export const PACKAGE_VERSION: string = manifest.version;

/** Where bugs are reported, when package.json names it. */
const PACKAGE_BUGS_URL: string | undefined = manifest.bugs?.url;

/** Where a bug in ralph is reported, and the facts a report needs: "at <url>, with: ralph 1.2.3, node v20…, linux". */
export function whereToReport(): string {
  const where = PACKAGE_BUGS_URL
    ? `at ${PACKAGE_BUGS_URL}`
    : `to the maintainers of ${PACKAGE_NAME} (the issue tracker of its repository)`;
  return `${where}, with: ralph ${PACKAGE_VERSION}, node ${process.version}, ${process.platform}`;
}
