import { startInGroup } from '../process/start-in-group.js';

/**
 * The platform's opener for a file, when a person can see its window: never in CI (a runner has
 * no one to look, and an opener there could hang the job), never on Linux without a display.
 */
export function openerFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string | undefined {
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false') return undefined;
  if (platform === 'darwin') return 'open';
  if (platform === 'win32') return undefined;
  return env.DISPLAY || env.WAYLAND_DISPLAY ? 'xdg-open' : undefined;
}

/** Opens the file, or says in one line why not; an opener that fails never fails the report. */
export async function openWithPlatform(
  path: string,
  env: NodeJS.ProcessEnv,
  out: NodeJS.WritableStream,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  const opener = openerFor(platform, env);
  if (opener === undefined) {
    out.write('ralph: --open skipped: no display here (or CI); open the file above yourself\n');
    return;
  }
  // A group of its own, unreferenced: the browser outlives ralph, which does not wait for it.
  const { child, ended } = startInGroup(opener, [path], { cwd: process.cwd(), env: process.env, stdio: 'ignore' });
  child?.unref();
  const waited = new Promise<undefined>((done) => setTimeout(done, 2000, undefined));
  const result = await Promise.race([ended, waited]);
  if (result && (result.error !== undefined || result.signal !== undefined || result.exitCode !== 0))
    out.write(`ralph: --open could not start ${opener}; open the file above yourself\n`);
}
