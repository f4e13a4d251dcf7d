import { constants } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Outlet } from './run-listener.js';

/**
 * `--events-file <path>` (or RALPH_EVENTS_FILE; never ralph/config.json, which the agent writes):
 * one JSON line appended per run ending, for a script or a dashboard that follows many runs. The
 * file is the person's: created when missing, never truncated, each ending one append. Never through
 * a link: a path inside the work tree is the agent's to replace with one to a file of the user's.
 */
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

export function eventsFileOutlet(path: string, cwd: string): Outlet {
  const file = resolve(cwd, path);
  return {
    name: `events file (${file})`,
    async deliver({ report }) {
      const { reason, exitCode, iterations, stories, costUsd, startedAt, endedAt, detail } = report;
      const line = {
        event: 'ended',
        reason,
        exitCode,
        iterations,
        stories,
        costUsd,
        startedAt,
        endedAt,
        ...(detail === undefined ? {} : { detail: detail.split('\n')[0] }),
      };
      await appendFile(file, `${JSON.stringify(line)}\n`, { mode: 0o600, flag: APPEND });
    },
  };
}
