import { resolve } from 'node:path';
import { RalphError } from '../errors.js';
import { openOwnFileForReading } from '../files/own-file.js';

/** An answer is a human's few lines: a file larger than this is the wrong file. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** Where the answer comes from: the argument, or --file. */
export interface AnswerSource {
  text?: string;
  file?: string;
}

/** The answer as the human gave it, line endings made plain; missing, empty or doubly given is a usage error. */
export async function readAnswerText(source: AnswerSource, cwd: string): Promise<string> {
  if (source.text !== undefined && source.file !== undefined)
    throw new RalphError('usage', 'ralph answer got the answer twice', 'give it as text or with --file, not both');
  const given = source.file === undefined ? source.text : await readAnswerFile(resolve(cwd, source.file), source.file);
  if (given === undefined)
    throw new RalphError(
      'usage',
      'ralph answer needs the answer',
      'ralph answer "<text>", or ralph answer --file FILE',
    );
  const answer = given.replace(/\r\n?/g, '\n').trim();
  if (answer === '')
    throw new RalphError(
      'usage',
      source.file === undefined ? 'the answer is empty' : `the answer in ${source.file} is empty`,
      'write what the loop should do',
    );
  return answer;
}

/** The text of --file: a regular file (never a FIFO that would hang the read), of a human's size. */
async function readAnswerFile(path: string, shown: string): Promise<string> {
  const handle = await openOwnFileForReading(path).catch((error: unknown) => {
    if (error instanceof RalphError) throw new RalphError('usage', `--file ${shown}: ${error.message}`, error.hint);
    throw error;
  });
  if (handle === undefined) throw new RalphError('usage', `--file ${shown} not found`, 'check the path');
  try {
    const { size } = await handle.stat();
    if (size > MAX_ANSWER_BYTES)
      throw new RalphError(
        'usage',
        `--file ${shown} holds ${size} bytes, more than an answer's ${MAX_ANSWER_BYTES}`,
        'give the file with just your answer',
      );
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}
