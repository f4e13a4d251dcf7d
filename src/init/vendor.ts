import { access, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCaptured } from '../process/run-captured.js';
import { RalphError } from '../errors.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.js';
import { packagePath } from '../templates.js';

/** Where `--vendor` puts the packed ralph, relative to the repository root (committed with the scaffold). */
export function vendoredTarball(): string {
  return `ralph/vendor/${PACKAGE_NAME.replace(/^@/, '').replace(/\//g, '-')}-${PACKAGE_VERSION}.tgz`;
}

/**
 * Packs the running ralph (its package root: the files package.json lists) into the repository, so
 * the workflow installs exactly this build with no registry holding ralph. A checkout that was
 * never built has no dist/ to pack: refused, saying how.
 */
export async function vendorRunningRalph(root: string): Promise<{ path: string; existed: boolean }> {
  const packageRoot = packagePath('');
  const manifest = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { files?: string[] };
  // A "!" entry leaves something out (the compile cache): nothing that has to be there.
  for (const entry of (manifest.files ?? []).filter((file) => !file.startsWith('!')))
    if (!(await present(join(packageRoot, entry))))
      throw new RalphError(
        'usage',
        `--vendor: the running ralph (${packageRoot}) has no ${entry}/ to pack`,
        `build it first (npm run build in ${packageRoot}), or name a published version with --install`,
      );
  const target = vendoredTarball();
  const existed = await present(join(root, target));
  const destination = join(root, 'ralph/vendor');
  await mkdir(destination, { recursive: true });
  // --ignore-scripts: packing must not rebuild (or run anything of) the package.
  const packed = await runCaptured('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination], {
    cwd: packageRoot,
    timeoutMs: 120_000,
    maxBytes: 1024 * 1024,
  });
  if (packed.exitCode !== 0 || !(await present(join(root, target))))
    throw new RalphError(
      'usage',
      `--vendor: npm pack in ${packageRoot} failed: ${packed.stderr.trim().split('\n').at(-1) ?? `exit ${packed.exitCode}`}`,
      `run npm pack in ${packageRoot} yourself to see why, or name a published version with --install`,
    );
  return { path: target, existed };
}

async function present(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
