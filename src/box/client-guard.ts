import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BoxRequest } from './box-request.js';
import { recordKeyFiles, restoreKeyFiles, type KeyFileRecord } from './key-files.js';
import { sweepRedirects } from './git-redirects.js';
import { keysRestoredLine, settingSweptLine } from './swept-lines.js';

/**
 * What ralph records of the clients' program-starting settings as the box is made: the settings
 * that are not there (a bind cannot hold a missing file read-only, so the agent could make one) and
 * the state files the clients rewrite themselves, with their starting keys.
 */
export interface ClientGuard {
  absent: string[];
  keyFiles: KeyFileRecord[];
}

export async function clientGuard(request: BoxRequest, home: string): Promise<ClientGuard> {
  const settings = (request.clientSettings ?? []).map((path) => join(home, path));
  const found = await Promise.all(settings.map(async (path) => ((await lstat(path).catch(() => undefined)) ? 1 : 0)));
  return {
    absent: settings.filter((_, index) => found[index] === 0),
    keyFiles: await recordKeyFiles(home, request.clientKeys ?? []),
  };
}

/**
 * After each command in the box: the settings the agent made taken away, the starting keys it
 * changed put back; resolves to one warning line for each. The client, started by you outside
 * the box, would otherwise start the hook or the MCP server the agent named.
 */
export async function sweepClientSettings(guard: ClientGuard): Promise<string[]> {
  return [
    ...(await sweepRedirects(guard.absent)).map(settingSweptLine),
    ...(await restoreKeyFiles(guard.keyFiles)).map(keysRestoredLine),
  ];
}
