import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isErrno } from '../errors.js';

/**
 * The run lock the kernel holds: a listening unix socket named after the work tree. On Linux it is an
 * abstract socket (`\0ralph-lock-<sha256>`): it is no file, so the agent can neither delete nor
 * replace it, and it vanishes with ralph's process however that ends (kill -9 included). Elsewhere
 * (macOS has no abstract sockets) it is a socket file in the temporary folder: it still dies with
 * ralph, but the agent could delete it (docs/run.md says so). `ralph/.ralph-active` only describes it.
 */
export interface KernelLock {
  release(): Promise<void>;
}

/**
 * The work tree a lock file belongs to: `<root>/ralph/.ralph-active` → `<root>`, resolved. One lock
 * per work tree, so a `git worktree` of the same repository runs its own loop.
 */
export function lockScope(lockFile: string): string {
  const root = dirname(dirname(lockFile));
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/** The socket's address for a work tree. */
export function lockAddress(scope: string, platform: NodeJS.Platform = process.platform): string {
  const digest = createHash('sha256').update(scope).digest('hex');
  // macOS limits a socket path to 104 bytes: 32 hex digits still name one work tree.
  return platform === 'linux' ? `\0ralph-lock-${digest}` : join(tmpdir(), `ralph-lock-${digest.slice(0, 32)}.sock`);
}

/** Takes the lock for the work tree; undefined when a live ralph holds it. */
export async function takeKernelLock(scope: string): Promise<KernelLock | undefined> {
  const address = lockAddress(scope);
  const server = createServer((socket) => socket.destroy());
  const listening = await listen(server, address);
  if (listening === 'in use') {
    // A socket file a dead ralph left (not Linux): nobody answers on it, so it is removed and taken.
    if (address.startsWith('\0') || (await answers(address))) return undefined;
    await unlink(address).catch(() => undefined);
    return (await listen(server, address)) === 'in use' ? undefined : held(server, address);
  }
  return held(server, address);
}

/** Whether a live ralph holds the work tree's lock (a connection is accepted), taking nothing. */
export function isKernelLockHeld(scope: string): Promise<boolean> {
  return answers(lockAddress(scope));
}

function held(server: Server, address: string): KernelLock {
  // The lock must not keep ralph alive: it is released when ralph ends, whatever it is doing.
  server.unref();
  return {
    release: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (!address.startsWith('\0')) void unlink(address).catch(() => undefined);
      }),
  };
}

function listen(server: Server, address: string): Promise<'listening' | 'in use'> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      if (isErrno(error, 'EADDRINUSE')) resolve('in use');
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve('listening');
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(address);
  });
}

function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
