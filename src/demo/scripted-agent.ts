import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A stand-in for `claude -p`, shipped for `ralph demo` and driven by the end-to-end tests.
 * Without a script it does what a good agent does: implements the next story, commits, and
 * says COMPLETE when none is left. With RALPH_AGENT_SCRIPT (a JSON list of steps, one per
 * call; the last repeats) it does exactly what each step says.
 */
export interface Step {
  /** Text for stdout; a list is written piece by piece, `pauseMs` apart. */
  say?: string | string[];
  pauseMs?: number;
  stderr?: string;
  /** Replace ralph/tasks.json: an object is written as JSON, a string as it is. */
  writeTasks?: unknown;
  /** Mark the next open story passing, write a file for it, and commit. */
  implement?: boolean;
  /** Commit a change without touching the task list. */
  commit?: boolean;
  /** Say COMPLETE when every story passes after this step. */
  completeWhenDone?: boolean;
  /** Start `sleep` in the background (same process group) and write its pid to this file. */
  grandchild?: string;
  ignoreSigterm?: boolean;
  sleepMs?: number;
  /** Never exit on its own. */
  hang?: boolean;
  exit?: number;
}

const DEFAULT_STEP: Step = { implement: true, completeWhenDone: true };

async function main(argv: string[]): Promise<void> {
  const prompt = await readPrompt(argv);
  const step = loadStep(argv, prompt);
  if (step.ignoreSigterm) process.on('SIGTERM', () => undefined);
  if (step.grandchild) {
    const child = spawn('sleep', ['300'], { stdio: 'ignore' });
    child.unref();
    writeFileSync(step.grandchild, String(child.pid));
  }
  if (step.stderr) process.stderr.write(step.stderr);
  for (const piece of typeof step.say === 'string' ? [step.say] : (step.say ?? [])) {
    await write(piece);
    if (step.pauseMs) await sleep(step.pauseMs);
  }
  if (step.writeTasks !== undefined) {
    const text = typeof step.writeTasks === 'string' ? step.writeTasks : JSON.stringify(step.writeTasks, null, 2);
    writeFileSync('ralph/tasks.json', text);
  }
  if (step.implement) await implementNextStory();
  if (step.commit) commitAll('chore: scripted change', `change-${Date.now()}-${process.pid}.txt`);
  if (step.completeWhenDone && openStories().length === 0) await write('All stories pass.\n<promise>COMPLETE</promise>\n');
  if (step.sleepMs) await sleep(step.sleepMs);
  if (step.hang) await new Promise(() => setInterval(() => undefined, 1 << 30));
  process.exitCode = step.exit ?? 0;
}

/** The prompt: the argument after -p, or stdin when -p is followed by a flag or nothing. */
async function readPrompt(argv: string[]): Promise<string> {
  const index = argv.indexOf('-p');
  const next = argv[index + 1];
  if (next !== undefined && !next.startsWith('--')) return next;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** This call's step, recording the call (argv, prompt) beside the script for the tests. */
function loadStep(argv: string[], prompt: string): Step {
  const script = process.env.RALPH_AGENT_SCRIPT;
  if (!script) return DEFAULT_STEP;
  const steps = JSON.parse(readFileSync(script, 'utf8')) as Step[];
  const counter = `${script}.calls`;
  const call = existsSync(counter) ? Number(readFileSync(counter, 'utf8')) + 1 : 1;
  writeFileSync(counter, String(call));
  const record = { call, argv, prompt, cwd: process.cwd(), claudecode: process.env.CLAUDECODE ?? null };
  writeFileSync(`${script}.call-${call}.json`, JSON.stringify(record, null, 2));
  return steps[Math.min(call, steps.length) - 1] ?? {};
}

function write(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}

interface DemoStory {
  id: string;
  title: string;
  passes?: boolean;
  priority?: number;
}

function readTaskFile(): { data: Record<string, unknown>; stories: DemoStory[] } {
  const data = JSON.parse(readFileSync('ralph/tasks.json', 'utf8')) as Record<string, unknown>;
  const stories = (data.stories ?? data.userStories ?? []) as DemoStory[];
  return { data, stories };
}

function openStories(): DemoStory[] {
  return readTaskFile()
    .stories.filter((story) => story.passes !== true)
    .sort((a, b) => (a.priority ?? Infinity) - (b.priority ?? Infinity));
}

async function implementNextStory(): Promise<void> {
  const story = openStories()[0];
  if (!story) return;
  await write(`Reading ralph/progress.txt and ralph/tasks.json.\nNext story: ${story.id} ${story.title}\n`);
  const { data, stories } = readTaskFile();
  for (const each of stories) if (each.id === story.id) each.passes = true;
  writeFileSync('ralph/tasks.json', JSON.stringify(data, null, 2) + '\n');
  mkdirSync('src', { recursive: true });
  appendFileSync('ralph/progress.txt', `\n## ${story.id} - ${story.title}\n- Implemented and verified by the scripted agent.\n`);
  await write(`Implemented ${story.id}; checks pass. Committing.\n`);
  commitAll(`feat: [${story.id}] - ${story.title}`, join('src', `${story.id.toLowerCase()}.txt`), story.title);
}

function commitAll(message: string, file: string, content = message): void {
  writeFileSync(file, `${content}\n`);
  execFileSync('git', ['add', '-A'], { stdio: 'ignore' });
  execFileSync('git', ['commit', '-q', '-m', message], { stdio: 'ignore' });
}

await main(process.argv.slice(2));
