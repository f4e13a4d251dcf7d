import { isAbsolute, relative } from 'node:path';
import { RalphError } from '../errors.js';
import { readFileWithin } from './file-within.js';
import { readOwnFile } from './own-file.js';

/**
 * The prompt's text, or a set-up error: a missing file, one with only whitespace (the agent would
 * run with no instructions), or one with a NUL byte (no process argument can carry one). A prompt
 * inside the repository must really be there: a link the agent put on its way out is refused (a
 * prompt outside it was named by the person, with --prompt or RALPH_PROMPT).
 */
export async function readPromptFile(root: string, path: string, shown: string, missingHint: string): Promise<string> {
  const inside = relative(root, path);
  const text = inside.startsWith('..') || isAbsolute(inside) ? await readOwnFile(path) : readFileWithin(root, path);
  if (text === undefined) throw new RalphError('setup', `prompt file ${shown} not found`, missingHint);
  const nul = text.indexOf('\0');
  if (nul !== -1) {
    const line = text.slice(0, nul).split('\n').length;
    throw new RalphError(
      'setup',
      `prompt file ${shown} contains a NUL byte (line ${line})`,
      'remove it: a prompt is text, and no process argument can carry a NUL',
    );
  }
  if (text.trim() === '')
    throw new RalphError('setup', `prompt file ${shown} is empty`, 'write the instructions for the agent in it');
  return text;
}
