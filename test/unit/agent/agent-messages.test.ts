import { readdirSync, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { diagnoseFailure } from '../../../src/agent/diagnose-failure.js';
import { claude } from '../../../src/agent/claude/dialect.js';
import type { AgentOutput, OutputTargets } from '../../../src/agent/output/agent-output.js';
import { createStreamJsonOutput } from '../../../src/agent/output/stream-json-output.js';
import { createTextOutput } from '../../../src/agent/output/text-output.js';
import { judgeIteration } from '../../../src/loop/judge.js';
import { detailOf } from '../../../src/loop/termination.js';
import { INITIAL_COUNTERS, type JudgeSettings } from '../../../src/loop/judge-inputs.js';
import type { AgentRun } from '../../../src/loop/port-data.js';

/**
 * The catalogue of real agent messages (test/fixtures/agent-messages/, one file per example, each
 * naming its public source, the moment it was observed and the verdict expected). Every example
 * goes through the path a run takes: the output observer of its mode, the failure diagnosis, and
 * the judge's ruling on the iteration.
 */
const DIR = new URL('../../fixtures/agent-messages/', import.meta.url);

interface Example {
  name: string;
  source: string;
  now: number;
  zone?: string;
  mode: 'text' | 'stream-json';
  exit: number;
  expect: 'ok' | 'error' | 'auth' | 'usage_limit' | 'rate_limited' | 'overloaded';
  resetsAt?: number;
  resetSource?: string;
  exhausted?: string;
  retryAt?: number;
  usage?: Record<string, number>;
  stdout: string;
  stderr: string;
}

function readExample(file: string): Example {
  const text = readFileSync(new URL(file, DIR), 'utf8');
  const stdoutAt = text.indexOf('--- stdout\n');
  const stderrAt = text.indexOf('--- stderr\n');
  if (stdoutAt < 0 || stderrAt < stdoutAt)
    throw new Error(`${file}: needs a "--- stdout" and then a "--- stderr" section`);
  const header = new Map(
    text
      .slice(0, stdoutAt)
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as const),
  );
  const field = (key: string) => {
    const value = header.get(key);
    if (value === undefined) throw new Error(`${file}: no "${key}:" in the header`);
    return value;
  };
  const optional = (key: string) =>
    header.get(key) === undefined || header.get(key) === 'none' ? undefined : header.get(key);
  const instant = (value: string | undefined) =>
    value === undefined ? undefined : Date.parse(value.split(' ')[0] ?? '');
  const usage = optional('usage');
  return {
    name: file.replace(/\.txt$/, ''),
    source: field('source'),
    now: instant(field('now')) ?? NaN,
    ...(optional('zone') ? { zone: optional('zone') } : {}),
    mode: field('mode') as Example['mode'],
    exit: Number(field('exit')),
    expect: field('expect') as Example['expect'],
    ...(optional('resetsAt') ? { resetsAt: instant(optional('resetsAt')) } : {}),
    ...(optional('resetSource') ? { resetSource: optional('resetSource') } : {}),
    ...(optional('exhausted') ? { exhausted: optional('exhausted') } : {}),
    ...(optional('retryAt') ? { retryAt: instant(optional('retryAt')) } : {}),
    ...(usage
      ? { usage: Object.fromEntries(usage.split(',').map((pair) => [pair.split('=')[0], Number(pair.split('=')[1])])) }
      : {}),
    stdout: text.slice(stdoutAt + '--- stdout\n'.length, stderrAt),
    stderr: text.slice(stderrAt + '--- stderr\n'.length),
  };
}

const discard = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });

/** The agent's output through the observer a run of this mode uses, in small chunks as a pipe delivers them. */
async function observe(example: Example) {
  const targets: OutputTargets = {
    log: discard(),
    jsonl: discard(),
    color: false,
    verbose: false,
    onError: (error) => {
      throw error;
    },
  };
  const output: AgentOutput =
    example.mode === 'stream-json' ? createStreamJsonOutput(targets, claude.reader()) : createTextOutput(targets);
  const write = (stream: Writable, text: string) => new Promise<void>((resolve) => stream.write(text, () => resolve()));
  for (let at = 0; at < example.stdout.length; at += 97) await write(output.stdout, example.stdout.slice(at, at + 97));
  await write(output.stderr, example.stderr);
  output.stdout.end();
  output.stderr.end();
  await Promise.all([finished(output.stdout), finished(output.stderr)]);
  return output.summary();
}

const SETTINGS: JudgeSettings = {
  maxStuck: 3,
  maxAgentFailures: 3,
  maxValidationFailures: 3,
  maxRuntimeMs: 400 * 24 * 3600_000,
  onUsageLimit: 'wait',
  maxGateFailures: 3,
  review: false,
  maxReviews: 3,
  maxNetworkWaitMs: 30 * 60_000,
};
const TASKS = {
  ok: true as const,
  tasks: { project: 'p', stories: [{ id: 'S1', title: 't', passes: false, priority: 1 }] },
};

const examples = readdirSync(DIR)
  .filter((file) => file.endsWith('.txt'))
  .sort()
  .map(readExample);

describe('the catalogue of real agent messages', () => {
  it('holds at least 50 examples, each with a source and a valid moment', () => {
    expect(examples.length).toBeGreaterThanOrEqual(50);
    for (const example of examples) {
      expect(example.source.length, example.name).toBeGreaterThan(10);
      expect(Number.isFinite(example.now), example.name).toBe(true);
    }
  });

  it.each(examples.map((example) => [example.name, example] as const))('%s', async (_name, example) => {
    const summary = await observe(example);
    const failure = diagnoseFailure(summary, example.exit, example.now, claude, example.zone ?? 'UTC');

    switch (example.expect) {
      case 'ok':
        expect(failure).toBeUndefined();
        break;
      case 'error':
        expect(failure).toMatchObject({ kind: 'error' });
        expect(failure?.kind === 'error' && failure.busy).toBeFalsy();
        break;
      case 'auth':
        expect(failure?.kind).toBe('auth');
        break;
      case 'rate_limited':
      case 'overloaded':
        expect(failure).toMatchObject({ kind: 'error', busy: { kind: example.expect } });
        expect(failure?.kind === 'error' ? failure.busy?.retryAt : 'none').toBe(example.retryAt);
        break;
      case 'usage_limit':
        expect(failure?.kind).toBe('usage_limit');
        if (failure?.kind !== 'usage_limit') break;
        expect(failure.reset?.at === undefined ? undefined : new Date(failure.reset.at).toISOString()).toBe(
          example.resetsAt === undefined ? undefined : new Date(example.resetsAt).toISOString(),
        );
        expect(failure.reset?.source ?? 'backoff').toBe(example.resetSource);
        expect(failure.exhausted).toBe(example.exhausted);
        break;
    }
    expect(Object.fromEntries((summary.usage ?? []).map((window) => [window.window, window.utilization]))).toEqual(
      example.usage ?? {},
    );

    // The judge's ruling: a limit no wait lifts ends the run; a usage limit waits for its reset; a busy server pauses.
    const run: AgentRun = {
      exitCode: example.exit,
      signals: { complete: false, invalid: [] },
      truncated: false,
      stats: { toolCalls: 0, invalidLines: 0 },
      ...(failure ? { failure } : {}),
      ...(summary.usage ? { usage: summary.usage } : {}),
    };
    const verdict = judgeIteration(
      {
        run,
        committed: false,
        tasks: TASKS,
        unconfirmed: new Set(),
        now: example.now,
        deadline: example.now + SETTINGS.maxRuntimeMs,
      },
      INITIAL_COUNTERS,
      SETTINGS,
    );
    if (example.expect === 'usage_limit' && example.exhausted) {
      expect(verdict.termination).toMatchObject({
        reason: 'usage_limit',
        why: example.exhausted,
        resetSource: example.resetSource,
      });
    } else if (example.expect === 'usage_limit') {
      expect(verdict.termination).toBeUndefined();
      expect(verdict.wait).toMatchObject({ why: 'usage_limit' });
      if (example.resetsAt !== undefined) expect(verdict.wait?.until).toBe(example.resetsAt + 60_000);
    } else if (example.expect === 'rate_limited' || example.expect === 'overloaded') {
      expect(verdict.outcome).toBe('agent_error');
      expect(verdict.counters.agentFailures).toBe(1);
      expect(verdict.wait).toMatchObject({ why: example.expect });
    } else {
      expect(verdict.wait).toBeUndefined();
    }
  });

  it("ends on used-up credits with Claude Code's own fix, word for word", async () => {
    const example = examples.find(({ name }) => name === 'org-out-of-usage')!;
    const failure = diagnoseFailure(await observe(example), example.exit, example.now, claude, 'UTC');
    expect(failure).toMatchObject({ exhausted: 'out_of_credits', hint: claude.hints.credits });
    const run: AgentRun = {
      exitCode: example.exit,
      signals: { complete: false, invalid: [] },
      truncated: false,
      stats: { toolCalls: 0, invalidLines: 0 },
      ...(failure ? { failure } : {}),
    };
    const facts = { run, committed: false, tasks: TASKS, unconfirmed: new Set<string>() };
    const verdict = judgeIteration(
      { ...facts, now: example.now, deadline: example.now + SETTINGS.maxRuntimeMs },
      INITIAL_COUNTERS,
      SETTINGS,
    );
    expect(detailOf(verdict.termination!)).toBe(
      'Your org is out of usage · add funds to continue — the usage credits are used up, and no wait lifts that: ' +
        'add credits (claude.ai/settings/usage) or choose a model your plan covers (agent.args in ralph/config.json), ' +
        'then run ralph again',
    );
  });
});
