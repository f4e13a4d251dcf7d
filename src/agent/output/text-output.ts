import { PromiseTagScanner } from '../promise-tags.js';
import type { AgentOutput, OutputTargets } from './agent-output.js';
import { TailLines } from './tail-lines.js';
import { tee } from './tee.js';
import { neutralisedLog } from './neutralised-log.js';

/** Plain `claude -p` output: to the .log and the terminal with controls shown; promise tags read as it passes. */
export function createTextOutput({ log: rawLog, terminal, onError }: OutputTargets): AgentOutput {
  // One writer for both streams: a sequence is judged within the stream that wrote it.
  const log = neutralisedLog(rawLog);
  const errorLog = neutralisedLog(rawLog);
  const scanner = new PromiseTagScanner();
  const stdoutTail = new TailLines(10);
  const stderrTail = new TailLines(20);
  return {
    stdout: tee(
      [log, terminal?.stdout],
      onError,
      (chunk) => {
        scanner.push(chunk);
        stdoutTail.push(chunk);
      },
      [log],
    ),
    stderr: tee([errorLog, terminal?.stderr], onError, (chunk) => stderrTail.push(chunk), [errorLog]),
    summary: () => ({
      signals: scanner.signals(),
      expectsResult: false,
      toolCalls: 0,
      invalidLines: 0,
      errorText: [...stderrTail.result(), ...stdoutTail.result()],
    }),
  };
}
