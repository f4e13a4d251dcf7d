import { relative } from 'node:path';
import type { Integration, ListOutcome } from './integrate.js';

/** The record `ralph/logs/integrate-last-run.json` holds, for scripts and CI that should not parse text. */
export interface IntegrationRecord {
  into: string;
  head: string;
  /** The worktree, relative to the repository. */
  worktree: string;
  exitCode: number;
  merged: string[];
  leftOut: string[];
  lists: ListOutcome[];
}

/** Whether the list's work is on the integration branch at the end. */
export function isIn(outcome: ListOutcome): boolean {
  return outcome.state === 'merged' || outcome.state === 'already_in';
}

/** Whether the list was tried and kept out (a conflict, a gate, a dependency kept out): a human must look. */
export function isLeftOut(outcome: ListOutcome): boolean {
  return (
    outcome.state === 'conflicts' ||
    outcome.state === 'gate_failed' ||
    outcome.state === 'waits' ||
    outcome.state === 'unreported'
  );
}

/** The record of an integration, with paths relative to the repository. */
export function integrationRecord(root: string, integration: Integration, exitCode: number): IntegrationRecord {
  return {
    into: integration.into,
    head: integration.head,
    worktree: relative(root, integration.worktree),
    exitCode,
    merged: integration.lists.filter(isIn).map((outcome) => outcome.list),
    leftOut: integration.lists.filter(isLeftOut).map((outcome) => outcome.list),
    lists: integration.lists.map((outcome) =>
      outcome.state === 'gate_failed' && outcome.log ? { ...outcome, log: relative(root, outcome.log) } : outcome,
    ),
  };
}

/** One line per list: `✓ api  ralph/api merged`, `✗ ui  ralph/ui left out: conflicts in src/a.ts`. */
export function outcomeLine(outcome: ListOutcome, root: string): string {
  const head = `${outcome.list}  ${outcome.branch}`;
  switch (outcome.state) {
    case 'merged':
      return `✓ ${head} merged (${outcome.commit.slice(0, 12)})`;
    case 'already_in':
      return `✓ ${head} was merged already`;
    case 'not_complete':
      return `· ${head} not merged: ${outcome.why}`;
    case 'conflicts':
      return `✗ ${head} left out: conflicts in ${outcome.files.join(', ')}`;
    case 'gate_failed':
      return `✗ ${head} left out: gate ${outcome.gate} failed on the merge: ${outcome.line}${
        outcome.log ? ` — ${relative(root, outcome.log)}` : ''
      }`;
    case 'waits':
      return `✗ ${head} left out: it depends on ${outcome.on.join(', ')}, which ${outcome.on.length === 1 ? 'is' : 'are'} not merged`;
    case 'unreported':
      return `✗ ${head} left out: ${outcome.why}`;
    case 'interrupted':
      return `~ ${head} not tried: interrupted`;
  }
}
