import type { Merged } from '../files/merged.js';

/**
 * What `ralph init` needs to know of the agent client it sets up, in that client's own terms: its
 * dialect (src/agent/) says it, so nothing here names a client.
 */
export interface InitAgent {
  /** Its `--agent` name, written to ralph/config.json. */
  kind: string;
  /** Its name as its users know it. */
  name: string;
  /** How to install it here. */
  install: string;
  /** How to log in, as a step says it. */
  login: string;
  /** Said when ralph runs as root and the client would refuse to start. */
  rootAdvice?: string;
  /** Whether it reports cost: without it the workflow's run has no `--max-cost`. */
  reportsCost: boolean;
  /** What the workflow installs, pinned, on which Node, and the key it hands over. */
  ci: {
    package: string;
    version: string;
    node: number;
    keyVariable: string;
    secret: string;
  };
  /** The client's settings file that init registers ralph's Stop hook in, where it has one. */
  stopHook?: { path: string; merge: (existing: string | undefined) => Merged };
}
