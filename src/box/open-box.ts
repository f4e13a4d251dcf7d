import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CACHE_VARIABLES, SOCKET_VARIABLES } from './box-policy.js';
import type { BoxNetwork, BoxRequest } from './box-request.js';
import { placedMounts } from './box-mounts.js';
import { sweepRedirects } from './git-redirects.js';
import { sweepNested } from './nested-sweep.js';
import { sweepClientSettings } from './client-guard.js';
import { nestedSweepLines, sweptLine } from './swept-lines.js';
import { bubblewrapArgs, type PlacedMount } from './bubblewrap.js';
import type { AbsentRecord } from './absent-read-only.js';
import { probeBox } from './probe-box.js';
import { seatbeltProfile } from './seatbelt.js';
import { RalphError } from '../errors.js';
import { throughBridge } from './network-bridge.js';
import { allowList, startNetworkProxy } from './network-proxy.js';

export type { BoxNetwork, BoxRequest };

/** A command line: the program and its arguments. */
export interface Launch {
  file: string;
  args: string[];
}

/** The run's box, set up once: every agent and gate goes through `wrap`. */
export interface Box {
  kind: 'bubblewrap' | 'seatbelt';
  /** The command run inside the box, from `cwd`. */
  wrap(command: Launch, cwd: string): Launch;
  /**
   * After each command in the box, once it has ended: removes the git redirects the agent made
   * where ralph recorded none (git-redirects.ts), then moves the FIFOs and devices it left in the
   * git dirs, the nested repositories it made and what it made at your read-only paths that were not
   * there into ralph's records (nested-sweep.ts), then takes away the client settings it made and
   * puts back the starting keys it changed (client-guard.ts); resolves to one warning line for each.
   */
  sweep(): Promise<string[]>;
  /** Removes the box's temporary folder: once the run's last agent and gate have ended. */
  close(): Promise<void>;
}

/** The boundary a run has, as the dry run, the transcript and last-run.json say it. */
export interface BoxChoice {
  box?: Box;
  mode: 'bubblewrap' | 'seatbelt' | 'none';
  reason: string;
}

/**
 * The run's box: the probe, once, then the places and the rules, once. A run with the Docker
 * sandbox has that for its boundary; `auto` where no box can be made goes on without one and says
 * why; a named box that cannot start refuses the run (probeBox).
 */
export async function openBox(request: BoxRequest): Promise<BoxChoice> {
  if (request.sandboxed) return { mode: 'none', reason: 'the Docker sandbox (--sandbox) is the boundary' };
  const probe = await probeBox(request.mode, request.root, request.env);
  if (probe.kind === 'none')
    return { mode: 'none', reason: probe.hint ? `${probe.reason}: ${probe.hint}` : probe.reason };
  const { kind, program } = probe;
  const network = request.network ?? { mode: 'open' };
  if (kind === 'seatbelt' && network.mode === 'allow-list')
    throw new RalphError(
      'setup',
      '--box-network allow-list needs bubblewrap: Seatbelt has no allow-list in ralph yet',
      'run with --box-network open',
    );
  const home = await realpath(request.env.HOME ?? homedir());
  const tmp = await mkdtemp(join(await realpath(tmpdir()), 'ralph-box-'));
  let proxy: Awaited<ReturnType<typeof openProxy>> | undefined;
  let placed: Awaited<ReturnType<typeof placedMounts>>;
  try {
    if (network.mode === 'allow-list' && kind === 'bubblewrap' && !request.dryRun) proxy = await openProxy(network);
    placed = await placedMounts(request, { home, tmp, visible: proxy ? [dirname(proxy.socket)] : [] });
  } catch (error) {
    // A box that could not be made leaves nothing behind: its folder, its proxy.
    await proxy?.close();
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  const { mounts, redirects, nested, places, settings, absent } = placed;
  const sweep = async () => [
    // The redirects first: ralph's own git, which lists the gitlinks, must not follow one.
    ...(await sweepRedirects(redirects)).map(sweptLine),
    ...(request.dryRun ? [] : nestedSweepLines(await sweepNested(nested, places, absent.swept))),
    ...(await sweepClientSettings(settings)),
  ];
  if (kind === 'seatbelt')
    return {
      mode: kind,
      reason: summary(mounts, network, absent),
      box: { ...seatbeltBox(program, mounts, tmp), sweep },
    };
  const isolated = network.mode === 'allow-list';
  return {
    mode: kind,
    reason: summary(mounts, network, absent),
    box: {
      kind,
      sweep,
      close: async () => {
        await proxy?.close();
        await rm(tmp, { recursive: true, force: true });
      },
      wrap: (command, cwd) => {
        const inner = proxy ? throughBridge(proxy.socket, command) : command;
        return {
          file: program,
          args: [...bubblewrapArgs(mounts, { tmp, cwd, allowList: isolated }), inner.file, ...inner.args],
        };
      },
    },
  };
}

/** The Seatbelt box: the profile, and TMPDIR set by `env` (sandbox-exec sets no variable). */
function seatbeltBox(program: string, mounts: readonly PlacedMount[], tmp: string): Omit<Box, 'sweep'> {
  const profile = seatbeltProfile(mounts);
  return {
    kind: 'seatbelt',
    close: () => rm(tmp, { recursive: true, force: true }),
    wrap: (command) => ({
      file: program,
      args: ['-p', profile, '/usr/bin/env', ...seatbeltEnvironment(tmp), command.file, ...command.args],
    }),
  };
}

/** `env`'s arguments: the sockets' variables unset, TMPDIR and the caches the box's own. */
function seatbeltEnvironment(tmp: string): string[] {
  return [
    ...SOCKET_VARIABLES.flatMap((name) => ['-u', name]),
    `TMPDIR=${tmp}`,
    ...Object.entries(CACHE_VARIABLES).map(([name, folder]) => `${name}=${join(tmp, folder)}`),
  ];
}

/** The allow-list's proxy, on a socket in a folder of its own that the box can reach but not write. */
async function openProxy(network: Extract<BoxNetwork, { mode: 'allow-list' }>) {
  const dir = await mkdtemp(join(await realpath(tmpdir()), 'ralph-net-'));
  const socket = join(dir, 'proxy.sock');
  const server = await startNetworkProxy(socket, allowList(network.hosts), network.onRefused);
  return {
    socket,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The box in a line, for the start, the dry run and last-run.json. */
function summary(mounts: readonly PlacedMount[], network: BoxNetwork, absent: AbsentRecord): string {
  const hidden = mounts.filter((mount) => mount.access === 'hidden').length;
  const reach = network.mode === 'open' ? '' : `; network: only ${network.hosts.join(', ') || 'no host'}`;
  const swept = absent.swept.map((record) => record.given);
  const unheld =
    absent.unheld.length === 0 ? '' : `; not held: ${absent.unheld.join(', ')} (a link on the way leads nowhere)`;
  return (
    "writable: the work tree, its git objects and branches, the client's state, a temporary folder with its own caches; " +
    "read-only: git's config and hooks, the client's hooks and servers, ralph's config, prompt, logs and records; " +
    `unreadable: ${hidden} credential ${hidden === 1 ? 'store' : 'stores'}${reach}` +
    (swept.length === 0 ? '' : `; not there, so swept after each command rather than held: ${swept.join(', ')}`) +
    unheld
  );
}
