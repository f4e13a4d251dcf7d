import { lstat, mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { BoxMode } from '../config/box-modes.js';
import { recordDir, workTreeGitDirs } from '../git/record-dir.js';
import { boxPolicy, orderedMounts, PACKAGE_CACHES, type BoxExtras } from './box-policy.js';
import { bubblewrapArgs, type PlacedMount } from './bubblewrap.js';
import { probeBox } from './probe-box.js';
import { seatbeltProfile } from './seatbelt.js';
import { RalphError } from '../errors.js';
import { throughBridge } from './network-bridge.js';
import { allowList, startNetworkProxy } from './network-proxy.js';

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
  /** Removes the box's temporary folder: once the run's last agent and gate have ended. */
  close(): Promise<void>;
}

/** The boundary a run has, as the dry run, the transcript and last-run.json say it. */
export interface BoxChoice {
  box?: Box;
  mode: 'bubblewrap' | 'seatbelt' | 'none';
  reason: string;
}

/** What the run's box is made from: the mode, the loop's work tree, the client's state, the user's paths. */
export interface BoxRequest {
  mode: BoxMode;
  /** The loop's own work tree. */
  root: string;
  env: NodeJS.ProcessEnv;
  /** The clients' state folders, relative to home (every dialect the run may start). */
  clientState: readonly string[];
  /** As the user gave them: relative to the work tree, or `~/…`. */
  extras: BoxExtras;
  /** The run's Docker sandbox, when it has one: then that is the boundary. */
  sandboxed: boolean;
  /** The dry run: the box as it would be, with nothing made in the repository. */
  dryRun?: boolean;
  /** Open (the host's), or only the hosts on the list, through ralph's proxy. */
  network?: BoxNetwork;
}

/** The box's network: the host's, or the allow-list's hosts alone (`host`, `host:port`, `*.domain`). */
export type BoxNetwork =
  { mode: 'open' } | { mode: 'allow-list'; hosts: readonly string[]; onRefused: (target: string) => void };

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
  const home = await realpath(request.env.HOME ?? homedir());
  const tmp = await mkdtemp(join(await realpath(tmpdir()), 'ralph-box-'));
  const mounts = await placedMounts(request, home, tmp);
  const { kind, program } = probe;
  const network = request.network ?? { mode: 'open' };
  if (kind === 'seatbelt') {
    if (network.mode === 'allow-list')
      throw new RalphError(
        'setup',
        '--box-network allow-list needs bubblewrap: Seatbelt has no allow-list in ralph yet',
        'run with --box-network open',
      );
    return { mode: kind, reason: summary(mounts, network), box: seatbeltBox(program, mounts, tmp) };
  }
  const proxy = network.mode === 'allow-list' && !request.dryRun ? await openProxy(network) : undefined;
  const isolated = network.mode === 'allow-list';
  return {
    mode: kind,
    reason: summary(mounts, network),
    box: {
      kind,
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
function seatbeltBox(program: string, mounts: readonly PlacedMount[], tmp: string): Box {
  const profile = seatbeltProfile(mounts);
  return {
    kind: 'seatbelt',
    close: () => rm(tmp, { recursive: true, force: true }),
    wrap: (command) => ({
      file: program,
      args: ['-p', profile, '/usr/bin/env', `TMPDIR=${tmp}`, command.file, ...command.args],
    }),
  };
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

/** The rules for this work tree, as mounts of paths that exist (a rule for a missing path is skipped). */
async function placedMounts(request: BoxRequest, home: string, tmp: string): Promise<PlacedMount[]> {
  const workTree = await realpath(request.root);
  const dirs = await workTreeGitDirs(workTree);
  const [gitDir, commonDir] = await Promise.all([realpath(dirs.gitDir), realpath(dirs.commonDir)]);
  // Made before the box, so that they are there to be bound read-only: a missing one the agent could make its own.
  const records = await recordDir(workTree);
  const mustExist = [records, join(commonDir, 'ralph'), join(commonDir, 'hooks'), join(commonDir, 'info')];
  if (!request.dryRun) await Promise.all(mustExist.map((dir) => mkdir(dir, { recursive: true })));
  const fromHome = (path: string) => join(home, path);
  const given = async (path: string) => {
    const absolute = path.startsWith('~/')
      ? fromHome(path.slice(2))
      : isAbsolute(path)
        ? path
        : resolve(workTree, path);
    return realpath(absolute).catch(() => absolute);
  };
  const extras: BoxExtras = {
    write: await Promise.all(request.extras.write.map(given)),
    readOnly: await Promise.all(request.extras.readOnly.map(given)),
    hidden: await Promise.all(request.extras.hidden.map(given)),
  };
  const places = {
    workTree,
    gitDir,
    commonDir,
    recordDir: await realpath(records).catch(() => records),
    home,
    tmp,
    clientState: request.clientState.map(fromHome),
    caches: PACKAGE_CACHES.map(fromHome),
  };
  const placed = await Promise.all(
    orderedMounts(boxPolicy(places, extras)).map(async (mount) => {
      const stats = await lstat(mount.path).catch(() => undefined);
      return stats && { ...mount, folder: stats.isDirectory() };
    }),
  );
  return placed.filter((mount) => mount !== undefined);
}

/** The box in a line, for the start, the dry run and last-run.json. */
function summary(mounts: readonly PlacedMount[], network: BoxNetwork): string {
  const hidden = mounts.filter((mount) => mount.access === 'hidden').length;
  const reach = network.mode === 'open' ? '' : `; network: only ${network.hosts.join(', ') || 'no host'}`;
  return (
    "writable: the work tree, its git objects and branches, the client's state, a temporary folder, package caches; " +
    "read-only: git's config and hooks, ralph's config, prompt, logs and records; " +
    `unreadable: ${hidden} credential ${hidden === 1 ? 'store' : 'stores'}${reach}`
  );
}
