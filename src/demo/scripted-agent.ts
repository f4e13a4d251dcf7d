/**
 * A stand-in for an agent client, shipped for `ralph demo` and driven by the end-to-end tests.
 * Without a script it does what a good agent does: implements the next story, commits, and
 * says COMPLETE when none is left. With RALPH_AGENT_SCRIPT (a JSON list of steps, one per
 * call; the last repeats) it does exactly what each step says. It speaks as the client whose
 * command line it was given (each dialect's voice, src/agent/<kind>/voice.ts), in that client's
 * machine-readable stream when the command line asks for it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { scriptedAnswer, voiceFor } from '../agent/dialects.js';
import { SESSION_VARIABLES } from '../agent/session-variables.js';
import { textEmitter } from '../agent/voice/voice.js';
import { commitAll, fix, followTaskFile, implementNextStory, isAllDone, modeOf, review } from './demo-stories.js';
import type { Step } from './script-step.js';
import { leaveDaemons, leaveGrandchild } from './stray-processes.js';

const DEMO_STEP: Step = { auto: true, completeWhenDone: true, pauseMs: 150 };

async function main(argv: string[]): Promise<void> {
  if (answersQuestion(argv)) return;
  const voice = voiceFor(argv);
  const prompt = voice.prompt(argv) ?? (await readStdin());
  const step = loadStep(argv, prompt);
  followTaskFile(prompt);
  const pauseMs = step.pauseMs ?? 0;
  const out = voice.streams(argv) ? voice.emitter(pauseMs) : textEmitter(pauseMs);
  if (step.ignoreSigterm) process.on('SIGTERM', () => undefined);
  if (step.grandchild) leaveGrandchild(step.grandchild);
  if (step.daemons) await leaveDaemons(step.daemons);
  await out.init();
  if (step.stderr) process.stderr.write(step.stderr);
  if (step.say !== undefined) await out.say(step.say);
  for (const tool of step.tools ?? [])
    await out.tool(tool.name, tool.input, tool.result ?? 'ok', tool.isError ?? false);
  for (const event of step.events ?? []) await out.raw(typeof event === 'string' ? event : JSON.stringify(event));
  const timed = step.eventAtCall;
  if (timed) await out.raw(timed.text.replace('{epoch}', String(Math.floor(Date.now() / 1000) + timed.inSeconds)));
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

/**
 * `--version` and the clients' login checks are questions, not calls: answered without a step. The
 * tests make the stand-in pass for the real client with RALPH_AGENT_VERSION (what its `--version`
 * prints), and say its login as each voice reads it (RALPH_AGENT_AUTH_STATUS, …).
 */
function answersQuestion(argv: string[]): boolean {
  if (argv[0] === '--version') {
    process.stdout.write(`${process.env.RALPH_AGENT_VERSION ?? 'ralph scripted agent'}\n`);
    return true;
  }
  const answer = scriptedAnswer(argv, process.env);
  if (answer === undefined) return false;
  process.stdout.write(answer.stdout);
  process.exitCode = answer.exitCode;
  return true;
}

/** The prompt when the command line does not hold it: stdin, to its end. */
async function readStdin(): Promise<string> {
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
  const record = (call: number) => ({
    call,
    argv,
    prompt,
    cwd: process.cwd(),
    // What ralph must clear from an agent's environment, each by its name in lower case: null when cleared.
    ...Object.fromEntries(SESSION_VARIABLES.map((name) => [name.toLowerCase(), process.env[name] ?? null])),
    marker: process.env.RALPH_RUN_MARKER ?? null,
  });
  // Loops of a parallel run call at once: each call claims its number by creating its record
  // (O_EXCL), so two never get the same step.
  let call = existsSync(counter) ? Number(readFileSync(counter, 'utf8')) + 1 : 1;
  for (; ; call++) {
    try {
      writeFileSync(`${script}.call-${call}.json`, JSON.stringify(record(call), null, 2), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (!existsSync(counter) || Number(readFileSync(counter, 'utf8')) < call) writeFileSync(counter, String(call));
  return steps[Math.min(call, steps.length) - 1] ?? {};
}

await main(process.argv.slice(2));
