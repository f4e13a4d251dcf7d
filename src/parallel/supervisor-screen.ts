import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createOwnFile } from '../files/own-file.js';
import { stopToken } from '../ui/runner-fence.js';
import { neutralise } from '../ui/neutralise.js';
import type { BoundedLines } from './bounded-lines.js';
import { LiveBoard, nameWidth } from './live-board.js';
import { loopLine, type LoopView } from './loop-view.js';
import { prefixedLines } from './prefixed-lines.js';

/** Where the supervisor shows the loops: their output, its own lines, the loops' live lines. */
export interface SupervisorScreen {
  output(list: string, stream: 'stdout' | 'stderr'): BoundedLines;
  changed(views: readonly LoopView[]): void;
  say(list: string, text: string): void;
  /** A line of the supervisor's own, about the run as a whole (the summary). */
  line(text: string): void;
  close(): Promise<void>;
}

/**
 * Off a terminal (a pipe, a CI log): every loop's lines, each with its list's name in front; the
 * live lines are not drawn. On GitHub Actions the runner's commands stay stopped from the first
 * line to the last, under a token no loop ever sees, and no forwarded line starts at column 0.
 */
export function prefixedScreen(
  out: NodeJS.WritableStream,
  names: readonly string[],
  github: boolean,
): SupervisorScreen {
  const width = nameWidth(names);
  const prefix = (name: string) => `${name.padEnd(width)} │ `;
  const token = github ? stopToken() : undefined;
  if (token) out.write(`::stop-commands::${token}\n`);
  return {
    output: (list) => prefixedLines(prefix(list), (text) => out.write(text)),
    changed: () => undefined,
    say: (list, text) => out.write(`${prefix(list)}${shown(text)}\n`),
    line: (text) => out.write(`${shown(text)}\n`),
    close: () =>
      new Promise((resolve) => {
        if (token) out.write(`::${token}::\n`);
        out.write('', () => resolve());
      }),
  };
}

/**
 * On a terminal: one live line per loop below the supervisor's own lines; each loop's output goes
 * to its own file under ralph/logs/parallel/ (its iteration logs are in its worktree as ever).
 */
export async function liveScreen(
  out: NodeJS.WritableStream & { columns?: number },
  root: string,
  logsDir: string,
  names: readonly string[],
  stamp: string,
): Promise<SupervisorScreen> {
  const board = new LiveBoard(out, () => out.columns);
  const width = nameWidth(names);
  const files = new Map<string, FileHandle>();
  for (const name of names)
    files.set(name, await createOwnFile(root, join(logsDir, 'parallel', `${stamp}-${name}.log`)));
  const streams = new Map([...files].map(([name, handle]) => [name, handle.createWriteStream()]));
  const onResize = () => board.resized();
  out.on('resize', onResize);
  return {
    output: (list) => prefixedLines('', (text) => streams.get(list)?.write(text)),
    changed: (views) => board.show(views.map((view) => loopLine(view, width))),
    say: (list, text) => board.print(`${list.padEnd(width)}  ${shown(text)}`),
    line: (text) => board.print(shown(text)),
    async close() {
      out.off('resize', onResize);
      board.close();
      await Promise.all([...streams.values()].map((stream) => new Promise((resolve) => stream.end(resolve))));
    },
  };
}

/** The supervisor's lines quote what loops reported (file names, a usage-limit message): neutralised. */
function shown(text: string): string {
  return neutralise(text, { color: false });
}
