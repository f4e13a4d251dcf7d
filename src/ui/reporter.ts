import pc from 'picocolors';
import type { LoopReporter } from '../loop/ports.js';
import { formatDuration } from './format.js';

/** Where ralph's own lines go. */
export interface Console {
  line(text: string): void;
}

/** Writes lines to a stream. */
export function streamConsole(stream: NodeJS.WritableStream): Console {
  return { line: (text) => void stream.write(`${text}\n`) };
}

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
    iterationFinished({ row, exitCode, committed }) {
      const took = formatDuration(row.durationSeconds * 1000);
      const exit = exitCode === 0 ? '' : ` · agent exit ${exitCode ?? 'signal'}`;
      const stories = `stories ${row.storiesComplete}/${row.storiesTotal}`;
      if (committed) {
        out.line(pc.green(`✓ iteration ${row.iteration}: commit ${row.commitHash.slice(0, 7)} · ${took} · ${stories}${exit}`));
      } else {
        out.line(pc.yellow(`✗ iteration ${row.iteration}: no new commit (stuck ${row.stuckCount}/${maxStuck}) · ${took} · ${stories}${exit}`));
      }
    },
    completeRejected({ remaining }) {
      const ids = remaining.map((story) => story.id).join(', ') || 'tasks.json is not valid';
      out.line(pc.yellow(`COMPLETE rejected: stories still failing: ${ids}`));
    },
    warning(message) {
      out.line(pc.yellow(`warning: ${message}`));
    },
  };
}
