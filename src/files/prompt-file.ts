import { RalphError } from '../errors.js';
import { readOwnFile } from './own-file.js';

/**
 * The prompt's text, or a set-up error: a missing file, one with only whitespace (the agent would
 * run with no instructions), or one with a NUL byte (no process argument can carry one).
 */
export async function readPromptFile(path: string, shown: string, missingHint: string): Promise<string> {
  const text = await readOwnFile(path);
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
