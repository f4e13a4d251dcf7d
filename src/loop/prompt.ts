import { renderFeedback } from './feedback.js';
import type { LoopSettings, LoopState } from './loop-state.js';
import { renderModeSection } from './mode-section.js';
import type { ModeChoice } from './mode.js';
import type { LoopFiles } from './ports.js';

/** The prompt: the user's prompt, the mode's guide, and the feedback (which goes to a file when it is over the cap). */
export async function promptFor(
  iteration: number,
  choice: ModeChoice,
  settings: LoopSettings,
  files: LoopFiles,
  state: LoopState,
): Promise<string> {
  const decideAnswered = !state.decideDelivered && (await files.decideState()) === 'answered';
  state.decideDelivered ||= decideAnswered;
  const exchange = decideAnswered ? await files.readDecideExchange() : undefined;
  const resolved = await files.takeBlockResolution();
  let section = renderFeedback(state.feedback, decideAnswered, exchange, resolved);
  if (Buffer.byteLength(section) > settings.maxFeedbackBytes) {
    const path = await files.writeFeedback(iteration, section);
    section = feedbackPreview(section, path, Math.floor(settings.maxFeedbackBytes / 2));
  }
  // Every story is done but the run is not (the gates rejected it): the finish guide.
  const guide = choice.story ? choice.mode : 'finish';
  const policy = settings.review ? await files.readModeGuide('review-policy') : '';
  const modeSection = renderModeSection(await files.readModeGuide(guide), choice, policy);
  const branch = settings.branch ? `${branchLine(settings.branch)}\n\n` : '';
  const taskFile = settings.taskFile ? `${taskFileLine(settings.taskFile)}\n\n` : '';
  return buildPrompt(await files.readPrompt(), `${branch}${taskFile}${modeSection}`, section);
}

/** The prompt of one iteration: the user's prompt, the mode's guide, then the feedback section when there is one. */
export function buildPrompt(base: string, modeSection: string, feedback: string): string {
  return (
    [base, modeSection, feedback]
      .filter((part) => part.trim() !== '')
      .map((part) => part.trimEnd())
      .join('\n\n') + '\n'
  );
}

/** A feedback section over the cap: its start, and where the whole of it is. */
export function feedbackPreview(feedback: string, path: string, previewBytes: number): string {
  const preview = Buffer.from(feedback)
    .subarray(0, previewBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${preview.trimEnd()}\n\n… (cut here: the whole feedback is in \`${path}\` — read it before anything else)\n`;
}

/** Which file is the task list, when `--tasks` chose another than the one the prompts name. */
export function taskFileLine(file: string): string {
  return `**Task list:** this run's task list is \`${file}\`. Wherever these instructions say \`ralph/tasks.json\`, read and update \`${file}\` instead.`;
}

/** Where the work goes: ralph put the work tree on the task list's branch, and it must stay there. */
export function branchLine(branch: string): string {
  return `**Branch:** you are on \`${branch}\`, the task list's branch. Commit there; do not switch, create or reset branches.`;
}
