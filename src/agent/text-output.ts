import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';
import { PromiseTagScanner, type PromiseSignals } from './promise-tags.js';
import { tee } from './tee.js';

/** Where the agent's two output streams go during one iteration, and what was read from them. */
export interface AgentOutput {
  stdout: Writable;
  stderr: Writable;
  /** What the output said; call once both streams have finished. */
  signals(): PromiseSignals;
}

export interface OutputTargets {
  /** The iteration log: gets both streams byte for byte. */
  log: Writable;
  /** The terminal's stdout and stderr; absent when quiet. */
  terminal?: { stdout: Writable; stderr: Writable };
  onError: (error: Error) => void;
}

/** Plain `claude -p` output: copied as it is, promise tags read from stdout as it passes. */
export function createTextOutput({ log, terminal, onError }: OutputTargets): AgentOutput {
  const scanner = new PromiseTagScanner();
  const decoder = new StringDecoder('utf8');
  return {
    stdout: tee([log, terminal?.stdout], onError, (chunk) => scanner.push(decoder.write(chunk))),
    stderr: tee([log, terminal?.stderr], onError),
    signals: () => {
      scanner.push(decoder.end());
      return scanner.signals();
    },
  };
}
