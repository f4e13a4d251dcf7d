import pc from 'picocolors';
import type { LoopReporter, Outcome } from '../loop/ports.js';
import { formatDuration } from './format.js';

/** Where ralph's own lines go. */
export interface Console {
  line(text: string): void;
  /** Redraws one status line in place (a TTY only); '' clears it. */
  status?(text: string): void;
}

/** Writes lines to a stream; on a TTY it can also redraw a status line. */
export function streamConsole(stream: NodeJS.WritableStream, { tty = false, timestamps = false } = {}): Console {
  const stamp = () => (timestamps ? `${pc.dim(new Date().toISOString().slice(11, 19))} ` : '');
  return {
    line: (text) => void stream.write(text.split('\n').map((line) => `${stamp()}${line}`).join('\n') + '\n'),
    ...(tty ? { status: (text: string) => void stream.write(`\r\u001b[2K${text}`) } : {}),
  };
}

const OUTCOME_LABEL: Record<Outcome, string> = {
  ok: '',
  agent_error: 'agent failed',
  agent_auth: 'agent not logged in',
  agent_setup: 'agent refused to start',
  usage_limit: 'usage limit',
  truncated: 'output cut off',
  timeout: 'iteration timeout',
  idle_timeout: 'idle timeout',
  max_runtime: 'max runtime reached',
  repetition: 'stopped: repeating a tool call',
  interrupted: 'interrupted',
};

/** Renders the loop's events as terminal lines. */
export function createReporter(out: Console, maxStuck: number): LoopReporter {
  return {
    iterationStarted({ iteration, index, maxIterations, mode, stories, nextStory }) {
      const parts = [
        `Iteration ${iteration} (${index + 1}/${maxIterations})`,
        mode,
        ...(nextStory ? [`${nextStory.id} ${nextStory.title}`.trim()] : []),
        `stories ${stories.complete}/${stories.total}`,
      ];
      out.line(pc.bold(pc.cyan(`── ${parts.join(' · ')} ──`)));
    },
    iterationFinished({ row, committed, failure }) {
      const facts = [
        formatDuration(row.durationSeconds * 1000),
        `stories ${row.storiesComplete}/${row.storiesTotal}`,
        ...(row.stats.costUsd === undefined ? [] : [`$${row.stats.costUsd.toFixed(2)}`]),
        ...(row.agentExitCode !== 0 && row.agentExitCode !== null ? [`agent exit ${row.agentExitCode}`] : []),
        ...(OUTCOME_LABEL[row.outcome] ? [OUTCOME_LABEL[row.outcome]] : []),
      ].join(' · ');
      const paint = row.outcome === 'ok' ? (committed ? pc.green : pc.yellow) : pc.red;
      const head = committed
        ? `✓ iteration ${row.iteration}: commit ${row.commitHash.slice(0, 7)}`
        : `✗ iteration ${row.iteration}: no new commit (stuck ${row.stuckCount}/${maxStuck})`;
      out.line(paint(`${head} · ${facts}`));
      if (failure?.kind === 'error') for (const line of failure.lines.slice(-3)) out.line(pc.dim(`  │ ${line}`));
    },
    completeRejected({ remaining }) {
      const ids = remaining.map((story) => story.id).join(', ') || 'tasks.json is not valid';
      out.line(pc.yellow(`COMPLETE rejected: stories still failing: ${ids}`));
    },
    usageLimitWait({ message, until }) {
      const left = () => formatDuration(until - Date.now());
      out.line(pc.yellow(`usage limit: ${message} — waiting until ${new Date(until).toISOString()} (${left()})`));
      if (!out.status) return () => undefined;
      const timer = setInterval(() => out.status?.(pc.yellow(`waiting for the usage limit to reset: ${left()} left`)), 1000);
      return () => {
        clearInterval(timer);
        out.status?.('');
      };
    },
    warning(message) {
      out.line(pc.yellow(`warning: ${message}`));
    },
  };
}
