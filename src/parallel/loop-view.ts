import { oneLine } from '../text/neutralise.js';
import type { LoopMessage } from './channel-messages.js';

/** What the supervisor shows of one loop: all it holds of it, rebuilt from the loop's messages. */
export interface LoopView {
  name: string;
  state: 'queued' | 'running' | 'waiting' | 'ended' | 'not started';
  iteration?: number;
  story?: { id: string; title: string };
  stories?: { complete: number; total: number };
  /** The loop's summed cost so far (its iterations' costs as it reported them). */
  costUsd: number;
  /** The last iteration made a commit. */
  committed?: boolean;
  /** Until when a waiting loop waits (epoch ms). */
  until?: number;
  /** How it ended, or why it never started. */
  ending?: string;
  /** Branches it conflicts with, and in which files. */
  conflicts: Map<string, readonly string[]>;
}

export function newView(name: string): LoopView {
  return { name, state: 'queued', costUsd: 0, conflicts: new Map() };
}

/** The view after one of the loop's messages. */
export function applyMessage(view: LoopView, message: LoopMessage): void {
  switch (message.t) {
    case 'started':
      Object.assign(view, { state: 'running', iteration: message.iteration, stories: message.stories });
      view.story = message.story;
      delete view.until;
      return;
    case 'finished':
      view.costUsd += message.costUsd;
      view.committed = message.committed;
      view.stories = message.stories;
      return;
    case 'waiting':
      view.state = 'waiting';
      view.until = message.until;
      return;
    case 'usage_limit':
      return;
  }
}

/**
 * One loop as one line: `api-auth  iteration 3 · US-2 Login form · 1/4 · $0.12 · running`. Every
 * word a loop reported (a story title is the agent's) is neutralised: no escape reaches the terminal.
 */
export function loopLine(view: LoopView, nameWidth: number): string {
  const facts = [
    ...(view.iteration === undefined ? [] : [`iteration ${view.iteration}`]),
    ...(view.story ? [`${view.story.id} ${view.story.title}`.trim()] : []),
    ...(view.stories ? [`stories ${view.stories.complete}/${view.stories.total}`] : []),
    ...(view.costUsd > 0 ? [`$${view.costUsd.toFixed(2)}`] : []),
    stateWords(view),
    ...[...view.conflicts].map(([other, files]) => `conflicts with ${other} in ${shownFiles(files)}`),
  ];
  const text = `${view.name.padEnd(nameWidth)}  ${facts.join(' · ')}`;
  return oneLine(text);
}

function stateWords(view: LoopView): string {
  switch (view.state) {
    case 'waiting':
      return `waiting for the usage limit until ${view.until === undefined ? '?' : new Date(view.until).toISOString().slice(11, 16)} UTC`;
    case 'ended':
      return `ended ${view.ending ?? ''}`.trim();
    case 'not started':
      return `not started: ${view.ending ?? ''}`;
    case 'running':
      return view.committed ? 'running · committed' : 'running';
    case 'queued':
      return 'queued';
  }
}

function shownFiles(files: readonly string[]): string {
  const shown = files.slice(0, 3).join(', ');
  return files.length > 3 ? `${shown} and ${files.length - 3} more` : shown || 'no file named';
}
