import { randomBytes } from 'node:crypto';
import { endMarked, killMarkedNow, MARKER_VARIABLE, type MarkedProcess } from './marked-processes.js';

/** The mark one scope of a run (an iteration's agent, a gate) puts in its processes' environment. */
export interface RunMarker {
  /** `<run id>:<scope>`, e.g. `3f9a…:agent-7`. */
  value: string;
  /** The environment with the marker set: what the scope's first process is started with. */
  env(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
}

/**
 * Keeps a run's processes inside the run. Every process ralph starts carries a marker in its
 * environment, inherited by whatever it starts in turn — through `setsid`, double forks and
 * `daemon()`, which all leave the process group. When a scope ends and its group is gone, the
 * processes still carrying its marker are found in /proc and ended too, and counted.
 * (PR_SET_CHILD_SUBREAPER would catch them as well, but Node offers no prctl.) Without /proc
 * (macOS) nothing is found: there only the process group is ended.
 */
export class Containment {
  /** Processes ended after they left their group, over the whole run. */
  ended = 0;
  private readonly live = new Set<string>();

  constructor(readonly runId: string = newRunId()) {}

  /** A fresh marker for one scope of this run. */
  mark(scope: string): RunMarker {
    const value = `${this.runId}:${scope}`;
    return { value, env: (base) => ({ ...base, [MARKER_VARIABLE]: value }) };
  }

  /**
   * Ends what still carries the marker once its group has been ended, and counts it. While it
   * is pending, ralph's own exit (an uncaught error, process.exit) kills them at once instead.
   */
  async endStrays(marker: RunMarker, options: { force?: AbortSignal } = {}): Promise<MarkedProcess[]> {
    const ended = await endMarked({ exact: marker.value }, options);
    this.ended += ended.length;
    return ended;
  }

  /** Registers a scope as running: if ralph exits before it ends, its marked processes are killed. */
  started(marker: RunMarker): () => void {
    this.live.add(marker.value);
    if (this.live.size === 1) process.once('exit', this.killOnExit);
    return () => {
      this.live.delete(marker.value);
      if (this.live.size === 0) process.off('exit', this.killOnExit);
    };
  }

  private readonly killOnExit = () => {
    for (const value of this.live) killMarkedNow({ exact: value });
  };
}

/** A run id: random, so two runs (in two worktrees, or one after another) never share a marker. */
function newRunId(): string {
  return randomBytes(6).toString('hex');
}

/** What matches every process of a run, whichever scope: for ending what a crashed run left. */
export function runMatch(runId: string): { prefix: string } {
  return { prefix: `${runId}:` };
}
