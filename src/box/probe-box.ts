import { RalphError } from '../errors.js';
import type { BoxMode } from '../config/box-modes.js';
import { findExecutable } from '../process/find-executable.js';
import { runCaptured } from '../process/run-captured.js';

/** The machine's box program, found to work here; or none, and why in a few words. */
export type BoxProbe =
  { kind: 'bubblewrap' | 'seatbelt'; program: string } | { kind: 'none'; reason: string; hint?: string };

const SEATBELT = '/usr/bin/sandbox-exec';
const PROBE_TIMEOUT_MS = 10_000;
const PROBE_MAX_BYTES = 64 * 1024;

/** What each box needs of the machine, tried once a run: a box that cannot start here is known before any agent. */
const TRIALS = {
  bubblewrap: {
    find: (cwd: string, path: string) => findExecutable('bwrap', cwd, path),
    args: [
      '--new-session',
      '--die-with-parent',
      '--unshare-pid',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      'true',
    ],
    missing: { reason: 'no bubblewrap', hint: 'apt install bubblewrap (or dnf install bubblewrap)' },
    refused:
      'user namespaces are not allowed here: on Ubuntu 24.04 see docs/sandbox.md (AppArmor), in a container allow them',
  },
  seatbelt: {
    find: (_cwd: string, _path: string) => findExecutable(SEATBELT, '/'),
    args: ['-p', '(version 1)(allow default)', '/usr/bin/true'],
    missing: {
      reason: 'no sandbox-exec',
      hint: 'Seatbelt comes with macOS; on another system use --box bubblewrap or none',
    },
    refused: 'sandbox-exec refused a profile: see docs/sandbox.md',
  },
} as const;

/** The box `auto` means on this platform, if any. */
function nativeBox(platform: NodeJS.Platform): 'bubblewrap' | 'seatbelt' | undefined {
  if (platform === 'linux') return 'bubblewrap';
  if (platform === 'darwin') return 'seatbelt';
  return undefined;
}

/** Tries the named box once: found, and able to make a box here. */
async function tryBox(kind: 'bubblewrap' | 'seatbelt', cwd: string, path: string): Promise<BoxProbe> {
  const trial = TRIALS[kind];
  const program = await trial.find(cwd, path);
  if (!program) return { kind: 'none', ...trial.missing };
  const ran = await runCaptured(program, trial.args, { cwd, timeoutMs: PROBE_TIMEOUT_MS, maxBytes: PROBE_MAX_BYTES });
  if (ran.exitCode === 0) return { kind, program };
  const said = ran.stderr
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
  const why = said ?? (ran.stopped ? 'no answer' : (ran.error?.code ?? `exit ${ran.exitCode ?? ran.signal}`));
  return { kind: 'none', reason: `${kind} cannot make a box here (${why})`, hint: trial.refused };
}

/**
 * The box a run gets for its mode: `none` as asked; `auto` the platform's own where it works, else
 * none with the reason; a named box that cannot start here refuses the run (exit 64), since the
 * person asked for that boundary by name.
 */
export async function probeBox(
  mode: BoxMode,
  cwd: string,
  env: NodeJS.ProcessEnv,
  platform = process.platform,
): Promise<BoxProbe> {
  if (mode === 'none') return { kind: 'none', reason: 'as asked: --box none' };
  const kind = mode === 'auto' ? nativeBox(platform) : mode;
  if (!kind) return { kind: 'none', reason: `no box on ${platform}`, hint: 'see docs/sandbox.md' };
  const probe = await tryBox(kind, cwd, env.PATH ?? '');
  if (probe.kind === 'none' && mode !== 'auto')
    throw new RalphError('setup', `--box ${mode}: ${probe.reason}`, probe.hint ?? 'or run with --box auto or none');
  return probe;
}
