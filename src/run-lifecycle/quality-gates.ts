import { relative } from 'node:path';
import pc from 'picocolors';
import { formatDuration } from '../ui/format.js';
import { formatBlockingEvent } from '../gates/format-event.js';
import { INTERRUPTED, runGates } from '../gates/run-gates.js';
import type { GateEnvironment, GateOutcome, GatePlace, GateSpec } from '../gates/types.js';
import type { QualityGates } from '../loop/ports.js';
import type { GateTrigger } from '../loop/port-data.js';
import type { Console } from '../ui/reporter.js';
import type { AgentInterrupts } from '../agent/spawn-agent.js';
import type { Containment } from '../process/containment.js';

export interface QualityGateOptions {
  specs: GateSpec[];
  root: string;
  logsDir: string;
  env: GateEnvironment;
  interrupts: AgentInterrupts;
  out: Console;
  containment: Containment;
  /** Where the commands run, when not on this machine: the agent's sandbox (--sandbox). */
  place?: GatePlace;
}

const REQUEST: Record<GateTrigger, (iteration: number) => string> = {
  start: () => 'start-of-run check (every story already passes)',
  complete: (iteration) => `COMPLETE claimed in iteration ${iteration}`,
  commit: (iteration) => `check after the commit of iteration ${iteration}`,
};

/**
 * The loop's quality-gate port: runs the configured gates, one status line each, and formats a
 * failure for the agent.
 */
export function createQualityGates(options: QualityGateOptions): QualityGates {
  const { out } = options;
  return {
    async check({ iteration, trigger, deadline }) {
      out.line(pc.bold(`quality gates: ${REQUEST[trigger](iteration)}`));
      const stop = stopAtDeadline(options.interrupts.graceful, deadline);
      const report = await runGates(options.specs, {
        cwd: options.root,
        logsDir: options.logsDir,
        iteration,
        env: options.env,
        request: REQUEST[trigger](iteration),
        onGateStart: (name) =>
          out.line(pc.dim(`  ▸ ${name}: ${options.specs.find((spec) => spec.name === name)?.command ?? ''}`)),
        onGateEnd: (outcome) => out.line(gateLine(outcome, options.root)),
        signal: stop.signal,
        force: options.interrupts.force,
        containment: { run: options.containment, warn: (message) => out.line(pc.yellow(`  warning: ${message}`)) },
        ...(options.place ? { place: options.place } : {}),
      }).finally(stop.dispose);
      if (report.passed) return { passed: true };
      if (report.interrupted || !report.event) return { passed: false, interrupted: true };
      return {
        passed: false,
        interrupted: false,
        summary: report.event.summary,
        event: formatBlockingEvent(report.event),
      };
    },
  };
}

/**
 * Stops the gates at the run's interrupt, or when --max-runtime is up: a gate must not keep a run
 * (or a CI job, which kills it without a summary) past its deadline. The reason says which.
 */
function stopAtDeadline(interrupt: AbortSignal, deadline: number): { signal: AbortSignal; dispose: () => void } {
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(INTERRUPTED);
  if (interrupt.aborted) onInterrupt();
  interrupt.addEventListener('abort', onInterrupt, { once: true });
  const timer = setTimeout(() => stop.abort('--max-runtime is up'), Math.max(0, deadline - Date.now()));
  return {
    signal: stop.signal,
    dispose: () => {
      clearTimeout(timer);
      interrupt.removeEventListener('abort', onInterrupt);
    },
  };
}

/** `✓ build passed (12s)`, `✗ tests failed (exit 1, 3s) — ralph/logs/gates-004-tests.log`, `~ lint skipped (…)`. */
function gateLine(outcome: GateOutcome, root: string): string {
  switch (outcome.status) {
    case 'passed':
      return pc.green(`  ✓ ${outcome.name} passed (${formatDuration(outcome.durationMs)})`);
    case 'failed': {
      // Ended by ralph (the interrupt, --max-runtime): the gate gave no verdict, and says why.
      if (outcome.interrupted)
        return pc.yellow(
          `  ■ ${outcome.name} stopped: ${outcome.details[0] ?? 'ralph stopped it'} (${formatDuration(outcome.durationMs)}), no verdict`,
        );
      const how = outcome.timedOut ? 'timed out' : `exit ${outcome.exitCode ?? 'signal'}`;
      return pc.red(
        `  ✗ ${outcome.name} failed (${how}, ${formatDuration(outcome.durationMs)}) — ${relative(root, outcome.logPath)}`,
      );
    }
    case 'skipped':
      return pc.dim(`  ~ ${outcome.name} skipped (${outcome.reason})`);
  }
}
