import { PromiseTagScanner } from '../promise-tags.js';
import type { AgentOutput, OutputTargets } from './agent-output.js';
import { TailLines } from './tail-lines.js';
import { tee } from './tee.js';

/** Plain `claude -p` output: copied byte for byte, promise tags read from stdout as it passes. */
export function createTextOutput({ log, terminal, onError }: OutputTargets): AgentOutput {
  const scanner = new PromiseTagScanner();
  const stdoutTail = new TailLines(10);
  const stderrTail = new TailLines(20);
  return {
    stdout: tee([log, terminal?.stdout], onError, (chunk) => {
      scanner.push(chunk);
      stdoutTail.push(chunk);
    }),
    stderr: tee([log, terminal?.stderr], onError, (chunk) => stderrTail.push(chunk)),
    summary: () => ({
      signals: scanner.signals(),
      expectsResult: false,
      toolCalls: 0,
      invalidLines: 0,
      errorText: [...stderrTail.result(), ...stdoutTail.result()],
    }),
  };
}
