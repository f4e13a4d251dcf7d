// eslint-disable-next-line no-restricted-imports -- the scripted stand-in for claude stays a dependency-free script
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A stand-in for `claude -p`, shipped for `ralph demo` and driven by the end-to-end tests.
 * Without a script it does what a good agent does: implements the next story, commits, and
 * says COMPLETE when none is left. With RALPH_AGENT_SCRIPT (a JSON list of steps, one per
 * call; the last repeats) it does exactly what each step says. With `--output-format
 * stream-json` it speaks in stream-json events, as the real client does.
 */
export interface Step {
  /** Text the agent says; a list is written piece by piece, `pauseMs` apart. */
  say?: string | string[];
  pauseMs?: number;
  stderr?: string;
  /** Written to stderr after everything else, just before exiting (a last line may lack its newline). */
  stderrAtEnd?: string;
  /** Tool calls (stream-json), each followed by its result. */
  tools?: { name: string; input: unknown; result?: string; isError?: boolean }[];
  /** Raw stdout lines: objects are written as JSON, strings as they are. */
  events?: unknown[];
  /** Replace ralph/tasks.json: an object is written as JSON, a string as it is. */
  writeTasks?: unknown;
  /** Write these files (path → content) before implementing or committing. */
  files?: Record<string, string>;
  /** Shell commands (`sh -c`, in order, each must succeed) after the files and before implementing or committing: `git reset --hard HEAD~3`, a rebase, a checkout. */
  shell?: string[];
  /** Mark the next open story passing, write a file for it, and commit. */
  implement?: boolean;
  /** Do what the prompt's "This iteration" section asks: implement, review (with `verdict`), or fix. */
  auto?: boolean;
  /** A review's verdict in auto mode (default approve). */
  verdict?: 'approve' | 'request_changes';
  /** Commit a change without touching the task list. */
  commit?: boolean;
  /** Say COMPLETE when every story passes after this step. */
  completeWhenDone?: boolean;
  /** Start `sleep` in the background (same process group) and write its pid to this file. */
  grandchild?: string;
  /**
   * Leave two sleeping daemons outside the process group — one through `setsid`, one the way
   * daemon() does it (a fork, `setsid`, another fork, `nohup`) — and append their pids to this file.
   */
  daemons?: string;
  ignoreSigterm?: boolean;
  sleepMs?: number;
  /** Never exit on its own. */
  hang?: boolean;
  /** While hanging, say "tick" this often (busy, never idle). */
  tickMs?: number;
  exit?: number;
  /** stream-json: fields merged into the result event; `false` leaves the result out (a cut-off stream). */
  result?: Record<string, unknown> | false;
}

const DEMO_STEP: Step = { auto: true, completeWhenDone: true, pauseMs: 150 };

async function main(argv: string[]): Promise<void> {
  const prompt = await readPrompt(argv);
  const step = loadStep(argv, prompt);
  const out = createEmitter(argv.includes('stream-json'), step.pauseMs ?? 0);
  if (step.ignoreSigterm) process.on('SIGTERM', () => undefined);
  if (step.grandchild) {
    const child = spawn('sleep', ['300'], { stdio: 'ignore' });
    child.unref();
    writeFileSync(step.grandchild, String(child.pid));
  }
  if (step.daemons) await leaveDaemons(step.daemons);
  await out.init();
  if (step.stderr) process.stderr.write(step.stderr);
  if (step.say !== undefined) await out.say(step.say);
  for (const tool of step.tools ?? [])
    await out.tool(tool.name, tool.input, tool.result ?? 'ok', tool.isError ?? false);
  for (const event of step.events ?? []) await out.raw(typeof event === 'string' ? event : JSON.stringify(event));
  if (step.writeTasks !== undefined) {
    const text = typeof step.writeTasks === 'string' ? step.writeTasks : JSON.stringify(step.writeTasks, null, 2);
    writeFileSync('ralph/tasks.json', text);
  }
  for (const [path, content] of Object.entries(step.files ?? {})) writeFileSync(path, content);
  for (const command of step.shell ?? []) {
    await out.tool('Bash', { command }, 'ok', false);
    execFileSync('sh', ['-c', command], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const mode = step.auto ? modeOf(prompt) : undefined;
  if (step.implement || mode?.mode === 'implement') await implementNextStory(out);
  if (mode?.mode === 'review') await review(out, mode.story, step.verdict ?? 'approve');
  if (mode?.mode === 'fix') await fix(out, mode.story);
  if (step.commit) commitAll('chore: scripted change', `change-${Date.now()}-${process.pid}.txt`);
  const reviewed = prompt.includes('Review cycle:');
  if (step.completeWhenDone && isAllDone(reviewed))
    await out.say('All stories are done.\n<promise>COMPLETE</promise>\n');
  if (step.sleepMs) await sleep(step.sleepMs);
  if (step.tickMs) setInterval(() => void out.say('tick\n'), step.tickMs);
  if (step.hang) await new Promise(() => setInterval(() => undefined, 1 << 30));
  const exit = step.exit ?? 0;
  if (step.result !== false) await out.result(exit !== 0, step.result ?? {});
  const tail = step.stderrAtEnd;
  if (tail) await new Promise<void>((resolve) => process.stderr.write(tail, () => resolve()));
  process.exitCode = exit;
}

/** How the agent speaks: plain text, or stream-json events like the real client's. */
function createEmitter(streamJson: boolean, pauseMs: number) {
  let lastText = '';
  let turns = 0;
  const line = (event: unknown) => write(`${JSON.stringify(event)}\n`);
  const assistant = (content: unknown[]) =>
    line({ type: 'assistant', message: { role: 'assistant', model: 'scripted', content }, session_id: 'scripted' });
  return {
    async init() {
      if (streamJson)
        await line({
          type: 'system',
          subtype: 'init',
          session_id: 'scripted',
          model: 'scripted',
          tools: ['Bash', 'Edit', 'Read'],
          claude_code_version: 'scripted',
        });
    },
    async say(text: string | string[]) {
      const pieces = typeof text === 'string' ? [text] : text;
      lastText = pieces.join('');
      turns++;
      if (!streamJson) {
        for (const piece of pieces) {
          await write(piece);
          if (pauseMs) await sleep(pauseMs);
        }
        return;
      }
      // One event, its line written in two halves: the reader must join lines split across writes.
      const json = `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', model: 'scripted', content: [{ type: 'text', text: lastText }] }, session_id: 'scripted' })}\n`;
      const half = Math.floor(json.length / 2);
      await write(json.slice(0, half));
      if (pauseMs) await sleep(pauseMs);
      await write(json.slice(half));
    },
    async tool(name: string, input: unknown, result: string, isError: boolean) {
      if (!streamJson) return write(`[${name}] ${JSON.stringify(input)}\n`);
      turns++;
      const id = `toolu_${turns}_${Math.random().toString(36).slice(2, 8)}`;
      await assistant([{ type: 'tool_use', id, name, input }]);
      await line({
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }],
        },
        session_id: 'scripted',
      });
    },
    raw: (text: string) => write(`${text}\n`),
    async result(isError: boolean, fields: Record<string, unknown>) {
      if (!streamJson) return;
      await line({
        type: 'result',
        subtype: 'success',
        is_error: isError,
        result: lastText,
        session_id: 'scripted',
        num_turns: turns,
        duration_ms: 1,
        total_cost_usd: 0.01,
        usage: { input_tokens: 100, output_tokens: 20 },
        ...fields,
      });
    },
  };
}

type Emitter = ReturnType<typeof createEmitter>;

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
  if (!script) return DEMO_STEP;
  const steps = JSON.parse(readFileSync(script, 'utf8')) as Step[];
  const counter = `${script}.calls`;
  const call = existsSync(counter) ? Number(readFileSync(counter, 'utf8')) + 1 : 1;
  writeFileSync(counter, String(call));
  const record = {
    call,
    argv,
    prompt,
    cwd: process.cwd(),
    claudecode: process.env.CLAUDECODE ?? null,
    marker: process.env.RALPH_RUN_MARKER ?? null,
  };
  writeFileSync(`${script}.call-${call}.json`, JSON.stringify(record, null, 2));
  return steps[Math.min(call, steps.length) - 1] ?? {};
}

async function leaveDaemons(pidFile: string): Promise<void> {
  const before = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).length : 0;
  const session = spawn('setsid', ['sleep', '300'], { stdio: 'ignore' });
  session.unref();
  appendFileSync(pidFile, `${session.pid}\n`);
  // The outer shell backgrounds a new session and exits; that session backgrounds sleep and exits too.
  const daemon = `setsid sh -c 'nohup sleep 301 >/dev/null 2>&1 & echo $! >> "$1"' daemon "$0" &`;
  execFileSync('sh', ['-c', daemon, pidFile], { stdio: 'ignore' });
  // Both pids written, and both out of this group, before the agent goes on: only the marker can find them then.
  const own = groupOf(process.pid);
  for (let waited = 0; waited < 10_000; waited += 20) {
    const pids = readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).slice(before).map(Number);
    if (pids.length >= 2 && pids.every((pid) => groupOf(pid) !== own)) return;
    await sleep(20);
  }
}

/** A process's group, from /proc/PID/stat (fields counted after the name's closing parenthesis). */
function groupOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2];
  } catch {
    return undefined;
  }
}

function write(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}

interface DemoStory {
  id: string;
  title: string;
  passes?: boolean;
  priority?: number;
  reviewStatus?: string;
  reviewCount?: number;
  reviewFeedback?: string;
}

/** The mode ralph put in the prompt ("## This iteration: review US-002"). */
function modeOf(prompt: string): { mode: 'implement' | 'review' | 'fix' | 'finish'; story: string } | undefined {
  const match = /^## This iteration: (implement|review|fix|finish)\s*(\S*)/m.exec(prompt);
  return match ? { mode: match[1] as 'implement', story: match[2] ?? '' } : { mode: 'implement', story: '' };
}

function isAllDone(reviewed: boolean): boolean {
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
  writeFileSync('ralph/tasks.json', JSON.stringify(data, null, 2) + '\n');
  await out.tool('Bash', { command: `git commit -am "${message}"` }, '1 file changed', false);
  execFileSync('git', ['commit', '-q', '-am', message], { stdio: 'ignore' });
}

async function review(out: Emitter, id: string, verdict: 'approve' | 'request_changes'): Promise<void> {
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

async function fix(out: Emitter, id: string): Promise<void> {
  await out.say(`Addressing the review of ${id}.\n`);
  mkdirSync('src', { recursive: true });
  writeFileSync(join('src', `${id.toLowerCase()}.test.txt`), 'empty case covered\n');
  execFileSync('git', ['add', '-A'], { stdio: 'ignore' });
  await updateStory(out, id, { reviewStatus: 'pending', passes: true }, `fix: [${id}] - address review`);
}

function readTaskFile(): { data: Record<string, unknown>; stories: DemoStory[] } {
  const data = JSON.parse(readFileSync('ralph/tasks.json', 'utf8').replace(/^\uFEFF/, '')) as Record<string, unknown>;
  const stories = (data.stories ?? data.userStories ?? []) as DemoStory[];
  return { data, stories };
}

function openStories(): DemoStory[] {
  return readTaskFile()
    .stories.filter((story) => story.passes !== true)
    .sort((a, b) => (a.priority ?? Infinity) - (b.priority ?? Infinity));
}

async function implementNextStory(out: Emitter): Promise<void> {
  const story = openStories()[0];
  if (!story) return;
  await out.tool('Read', { file_path: 'ralph/progress.txt' }, '# Progress', false);
  await out.say(`Next story: ${story.id} ${story.title}\n`);
  const file = join('src', `${story.id.toLowerCase()}.txt`);
  await out.tool('Write', { file_path: file, content: story.title }, 'ok', false);
  const { data, stories } = readTaskFile();
  for (const each of stories) if (each.id === story.id) each.passes = true;
  writeFileSync('ralph/tasks.json', JSON.stringify(data, null, 2) + '\n');
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

function commitAll(message: string, file: string, content = message): void {
  writeFileSync(file, `${content}\n`);
  execFileSync('git', ['add', '-A'], { stdio: 'ignore' });
  execFileSync('git', ['commit', '-q', '-m', message], { stdio: 'ignore' });
}

await main(process.argv.slice(2));
