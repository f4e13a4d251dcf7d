import { isAbsolute, normalize } from 'node:path';
import { boolean, choice, duration, percent, positiveNumber, text, wholeNumber } from './value-kinds.js';
import { sandboxName } from './sandbox-kind.js';
import { BOX_OPTIONS } from './box-options.js';
import { option, type OptionDef } from './option-def.js';
import { AGENT_KINDS, type AgentKind } from '../agent/dialects.js';
import { isCi } from '../process/ci-environment.js';
import type { NotifyEvent } from './notify-events.js';
import { notifyEvents, notifyTargets } from './notify-targets.js';

export type { OptionDef };

// The defaults below are widened from their literal to the option's whole union: inference needs
// that, though the type-aware lint sees only that the literal already fits.
/* eslint-disable @typescript-eslint/no-unnecessary-type-assertion */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Every configurable option of `ralph run`. Flags, environment variables (`RALPH_` + the
 * flag in upper snake case), config keys, the JSON Schema and the README table all derive
 * from this one list.
 */
export const RUN_OPTIONS = {
  maxIterations: option({
    flag: '--max-iterations <n>',
    kind: wholeNumber(1),
    default: 10,
    description: 'iterations this run may start',
  }),
  maxStuck: option({
    flag: '--max-stuck <n>',
    kind: wholeNumber(1),
    default: 3,
    description: 'consecutive iterations without a new commit that stop the run',
  }),
  prompt: option({
    flag: '--prompt <file>',
    kind: text('a file path'),
    default: 'ralph/prompt.md',
    description: 'the prompt sent every iteration',
    // Read on this machine and given to the agent: a file outside the repository is the person's to name.
    refusedInConfig: (path) =>
      typeof path === 'string' && (isAbsolute(path) || normalize(path).split(/[\\/]/)[0] === '..')
        ? 'names a file outside the repository, which ralph would read and hand to the agent'
        : undefined,
  }),
  tasks: option({
    flag: '--tasks <file>',
    kind: text('a file path'),
    default: 'ralph/tasks.json',
    description: 'the task list this run works on: ralph/tasks.json or one of ralph/lists/*.json',
  }),
  agent: option({
    flag: '--agent <kind>',
    kind: choice(AGENT_KINDS),
    default: AGENT_KINDS[0] as AgentKind,
    description: 'the agent client ralph speaks to, each in its own machine-readable mode (docs/agents.md)',
    configPath: ['agent', 'kind'],
  }),
  fallbackAgent: option({
    flag: '--fallback-agent <kind>',
    kind: choice(AGENT_KINDS),
    default: undefined as AgentKind | undefined,
    defaultLabel: 'none',
    description: "the agent kind that runs while the first one's usage limit runs, until its reset",
    configPath: ['agent', 'fallback'],
  }),
  agentBin: option({
    flag: '--agent-bin <path>',
    kind: text('an executable name or path'),
    default: undefined as string | undefined,
    defaultLabel: "the --agent kind's own",
    description: "the agent executable: a name on PATH or a path; anything that takes that kind's arguments",
    configPath: ['agent', 'bin'],
  }),
  model: option({
    flag: '--model <name>',
    kind: text('a model name'),
    default: undefined as string | undefined,
    defaultLabel: "the client's own",
    description: "the model, in the client's own naming, passed to its model flag",
    configPath: ['agent', 'model'],
  }),
  output: option({
    flag: '--output <format>',
    kind: choice(['stream-json', 'text'] as const),
    default: 'stream-json' as 'stream-json' | 'text',
    description:
      "stream-json: read the agent's machine-readable events and show a readable transcript; text: its plain output",
  }),
  verbose: option({
    flag: '--verbose',
    kind: boolean(),
    default: false,
    description: 'show more of the transcript: thinking, tool results, unknown events',
  }),
  maxRuntime: option({
    flag: '--max-runtime <duration>',
    kind: duration(),
    default: 4 * HOUR,
    defaultLabel: '4h',
    description: 'wall time for the whole run; the running agent is stopped when it is up',
  }),
  maxCost: option({
    flag: '--max-cost <usd>',
    kind: positiveNumber(),
    default: undefined as number | undefined,
    defaultLabel: 'none',
    description:
      "stop once the agents' summed total_cost_usd reaches this many US dollars (checked after each iteration)",
  }),
  iterationTimeout: option({
    flag: '--iteration-timeout <duration>',
    kind: duration(),
    default: 30 * MINUTE,
    defaultLabel: '30m',
    description: "one iteration's wall time before its agent is stopped",
  }),
  idleTimeout: option({
    flag: '--idle-timeout <duration>',
    kind: duration(),
    default: 10 * MINUTE,
    defaultLabel: '10m',
    description: 'how long the agent may print nothing at all before it is stopped',
  }),
  maxNetworkWait: option({
    flag: '--max-network-wait <duration>',
    kind: duration(),
    default: 30 * MINUTE,
    defaultLabel: '30m',
    description:
      'once an iteration worked, how long a dropped network is waited out (pauses of 15 s, doubling, within --max-runtime) before it ends the run',
  }),
  maxAgentFailures: option({
    flag: '--max-agent-failures <n>',
    kind: wholeNumber(1),
    default: 3,
    description:
      'consecutive iterations in which the agent failed (non-zero exit or an error result) that stop the run',
  }),
  onUsageLimit: option({
    flag: '--on-usage-limit <action>',
    kind: choice(['wait', 'stop'] as const),
    default: 'wait' as 'wait' | 'stop',
    defaultLabel: 'wait; stop in CI',
    defaultIn: (env) => (isCi(env) ? 'stop' : 'wait'),
    description: 'on a usage limit: wait until it resets (within --max-runtime), or stop',
  }),
  maxUsage: option({
    flag: '--max-usage <percent>',
    kind: percent(),
    default: undefined as number | undefined,
    defaultLabel: 'none',
    description:
      "when the agent reports a usage window (five_hour, seven_day, …) this full, finish the iteration, then wait for that window's reset (or stop, with --on-usage-limit stop)",
  }),
  maxRepeats: option({
    flag: '--max-repeats <n>',
    kind: wholeNumber(2),
    default: 5,
    description: 'identical tool calls in a row that stop an iteration (stream-json)',
  }),
  maxValidationFailures: option({
    flag: '--max-validation-failures <n>',
    kind: wholeNumber(1),
    default: 3,
    description:
      'consecutive iterations that break the rules (bad promise tags, a rejected COMPLETE, a broken tasks.json, a cut-off stream) that stop the run',
  }),
  gatesWhen: option({
    flag: '--gates-when <when>',
    kind: choice(['complete', 'commit'] as const),
    default: 'complete' as 'complete' | 'commit',
    description: 'when the quality gates run: on a COMPLETE claim, or also after every iteration that committed',
  }),
  maxGateFailures: option({
    flag: '--max-gate-failures <n>',
    kind: wholeNumber(1),
    default: 3,
    description: 'consecutive COMPLETE claims rejected by the quality gates that stop the run',
  }),
  report: option({
    flag: '--report',
    kind: boolean(),
    default: false,
    description: 'write ralph/logs/report.html at every ending (the same file ralph report writes)',
  }),
  notify: option({
    flag: '--notify <target>',
    kind: notifyTargets(),
    default: [] as string[],
    defaultLabel: 'none',
    repeatable: true,
    description:
      'where to say that the run ended, blocked, asks, waits or is nearly stuck: desktop, an https:// URL, or cmd:<command> (repeatable; docs/notifications.md)',
    // A command runs on this machine, outside the box: the agent writes ralph/config.json.
    refusedInConfig: (targets) =>
      Array.isArray(targets) && targets.some((target) => typeof target === 'string' && target.startsWith('cmd:'))
        ? "names a cmd: target, which runs on this machine outside the agent's box"
        : undefined,
  }),
  eventsFile: option({
    flag: '--events-file <path>',
    kind: text('a file path'),
    default: undefined as string | undefined,
    defaultLabel: 'none',
    description:
      'append one JSON line per run ending to this file (a flag or RALPH_EVENTS_FILE only: ralph/config.json may not choose where ralph writes)',
    // The agent writes ralph/config.json: it must not choose where ralph writes.
    refusedInConfig: () => 'names a file ralph writes, which only a flag or RALPH_EVENTS_FILE may choose',
  }),
  notifyOn: option({
    flag: '--notify-on <events>',
    kind: notifyEvents(),
    default: undefined as NotifyEvent[] | undefined,
    defaultLabel: 'all but a COMPLETE ended; CI: all',
    description:
      'the events that notify: ended, blocked, decide, usage_limit_wait, network_wait, stuck_warning (comma-separated)',
  }),
  skipReview: option({
    flag: '--skip-review',
    kind: boolean(),
    default: false,
    description: 'turn the review cycle off: every iteration implements, and COMPLETE needs only passes',
  }),
  maxReviews: option({
    flag: '--max-reviews <n>',
    kind: wholeNumber(1),
    default: 3,
    description: 'reviews that send one story back before the run stops for a human (exit 2)',
  }),
  maxResumes: option({
    flag: '--max-resumes <n>',
    kind: wholeNumber(0),
    default: 3,
    description: 'runs in a row that may resume after a run that completed no story (0: none)',
  }),
  skipPreflight: option({
    flag: '--skip-preflight',
    kind: boolean(),
    default: false,
    description:
      "don't check the agent's login and its API's reachability before the first call (set-ups with a gateway of their own)",
  }),
  allowDirty: option({
    flag: '--allow-dirty',
    kind: boolean(),
    default: false,
    description:
      "start even with uncommitted changes outside ralph/ that the last run did not leave (the agent's commits may sweep them in)",
  }),
  quiet: option({
    flag: '--quiet',
    kind: boolean(),
    default: false,
    description: "show only ralph's own lines and the summary (agent output still goes to the logs)",
  }),
  branch: option({
    flag: '--no-branch',
    kind: boolean(),
    default: true,
    defaultLabel: "on: switch to the task list's branchName",
    description: "stay on the current branch instead of switching to (or creating) the task list's branchName",
  }),
  sandbox: option({
    flag: '--sandbox [name]',
    kind: sandboxName(),
    default: false as string | boolean,
    defaultLabel: 'off',
    description: 'run each iteration in a Docker sandbox (name default: ralph-<dir>-<hash>)',
  }),
  ...BOX_OPTIONS,
} satisfies Record<string, OptionDef<unknown>>;

export type RunOptionKey = keyof typeof RUN_OPTIONS;

/** The resolved value of every run option. */
export type RunSettings = { [K in RunOptionKey]: (typeof RUN_OPTIONS)[K]['default'] };

/** `--max-iterations <n>` → `max-iterations`. */
function flagName(flag: string): string {
  return flag.replace(/^--/, '').split(/[ <[]/)[0] ?? flag;
}

/** `--max-iterations <n>` → `RALPH_MAX_ITERATIONS`; `--no-branch` → `RALPH_BRANCH` (the setting, not its negation). */
export function envName(flag: string): string {
  return `RALPH_${flagName(flag).replace(/^no-/, '').replace(/-/g, '_').toUpperCase()}`;
}

/** Where an option lives in ralph/config.json. */
export function configPathOf(key: RunOptionKey): readonly string[] {
  return RUN_OPTIONS[key].configPath ?? [key];
}

/** Whether the option takes no value on the command line. */
export function isSwitch(def: OptionDef<unknown>): boolean {
  return !/[<[]/.test(def.flag);
}
