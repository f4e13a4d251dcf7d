import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Emitter } from '../agent/voice/voice.js';

interface DemoStory {
  id: string;
  title: string;
  passes?: boolean;
  priority?: number;
  reviewStatus?: string;
  reviewCount?: number;
  reviewFeedback?: string;
}

/** The task list the agent works on: ralph/tasks.json, unless the prompt names another (`--tasks`). */
let taskFile = 'ralph/tasks.json';

/** Follows the prompt's "**Task list:** this run's task list is `ralph/lists/api.json`" line. */
export function followTaskFile(prompt: string): void {
  taskFile = /^\*\*Task list:\*\* this run's task list is `([^`]+)`/m.exec(prompt)?.[1] ?? 'ralph/tasks.json';
}

/** The mode ralph put in the prompt ("## This iteration: review US-002"). */
export function modeOf(prompt: string): { mode: 'implement' | 'review' | 'fix' | 'finish'; story: string } | undefined {
  const match = /^## This iteration: (implement|review|fix|finish)\s*(\S*)/m.exec(prompt);
  return match ? { mode: match[1] as 'implement', story: match[2] ?? '' } : { mode: 'implement', story: '' };
}

/** Whether every story passes (and, in a reviewed run, is approved). */
export function isAllDone(reviewed: boolean): boolean {
  return readTaskFile().stories.every(
    (story) => story.passes === true && (!reviewed || story.reviewStatus === 'approved'),
  );
}

/** Changes one story's fields in tasks.json and commits, as an agent's review or fix would. */
async function updateStory(out: Emitter, id: string, fields: Partial<DemoStory>, message: string): Promise<void> {
  const { data, stories } = readTaskFile();
  for (const story of stories)
    if (story.id === id)
      Object.assign(story, fields, {
        reviewCount: (story.reviewCount ?? 0) + (fields.reviewStatus === 'pending' ? 0 : 1),
      });
  writeFileSync(taskFile, JSON.stringify(data, null, 2) + '\n');
  await out.tool('Bash', { command: `git commit -am "${message}"` }, '1 file changed', false);
  execFileSync('git', ['commit', '-q', '-am', message], { stdio: 'ignore' });
}

/** Reviews a story: approves it, or requests changes and reopens it. */
export async function review(out: Emitter, id: string, verdict: 'approve' | 'request_changes'): Promise<void> {
  await out.tool('Bash', { command: `git log --oneline --grep "${id}"` }, `feat: [${id}]`, false);
  if (verdict === 'approve') {
    await out.say(`${id} meets every acceptance criterion. Approved.\n`);
    await updateStory(out, id, { reviewStatus: 'approved' }, `review: [${id}] - approved`);
  } else {
    await out.say(`${id} misses a criterion. Changes requested.\n`);
    await updateStory(
      out,
      id,
      { reviewStatus: 'changes_requested', passes: false, reviewFeedback: 'Add a test for the empty case.' },
      `review: [${id}] - changes requested`,
    );
  }
}

/** Addresses a review's requested changes and puts the story back up for review. */
export async function fix(out: Emitter, id: string): Promise<void> {
  await out.say(`Addressing the review of ${id}.\n`);
  mkdirSync('src', { recursive: true });
  writeFileSync(join('src', `${id.toLowerCase()}.test.txt`), 'empty case covered\n');
  execFileSync('git', ['add', '-A'], { stdio: 'ignore' });
  await updateStory(out, id, { reviewStatus: 'pending', passes: true }, `fix: [${id}] - address review`);
}

function readTaskFile(): { data: Record<string, unknown>; stories: DemoStory[] } {
  const data = JSON.parse(readFileSync(taskFile, 'utf8').replace(/^\uFEFF/, '')) as Record<string, unknown>;
  const stories = (data.stories ?? data.userStories ?? []) as DemoStory[];
  return { data, stories };
}

function openStories(): DemoStory[] {
  return readTaskFile()
    .stories.filter((story) => story.passes !== true)
    .sort((a, b) => (a.priority ?? Infinity) - (b.priority ?? Infinity));
}

/** Implements the open story of highest priority: a file, the task list, progress, a commit. */
export async function implementNextStory(out: Emitter): Promise<void> {
  const story = openStories()[0];
  if (!story) return;
  await out.tool('Read', { file_path: 'ralph/progress.txt' }, '# Progress', false);
  await out.say(`Next story: ${story.id} ${story.title}\n`);
  const file = join('src', `${story.id.toLowerCase()}.txt`);
  await out.tool('Write', { file_path: file, content: story.title }, 'ok', false);
  const { data, stories } = readTaskFile();
  for (const each of stories) if (each.id === story.id) each.passes = true;
  writeFileSync(taskFile, JSON.stringify(data, null, 2) + '\n');
  mkdirSync('src', { recursive: true });
  appendFileSync(
    'ralph/progress.txt',
    `\n## ${story.id} - ${story.title}\n- Implemented and verified by the scripted agent.\n`,
  );
  const message = `feat: [${story.id}] - ${story.title}`;
  await out.tool('Bash', { command: `git add -A && git commit -m "${message}"` }, '1 file changed', false);
  commitAll(message, file, story.title);
  await out.say(`Implemented ${story.id}; checks pass. Committed.\n`);
}

/** Writes a file and commits everything. */
export function commitAll(message: string, file: string, content = message): void {
  writeFileSync(file, `${content}\n`);
  execFileSync('git', ['add', '-A'], { stdio: 'ignore' });
  execFileSync('git', ['commit', '-q', '-m', message], { stdio: 'ignore' });
}
