import { dirname } from 'node:path';
import type { AgentCommand } from '../agent/agent-command.js';
import { probeContainment } from '../process/containment.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';
import { RUN_OPTIONS, type RunOptionKey } from '../config/run-options.js';
import { RalphError } from '../errors.js';
import { lockRefusal } from '../files/active-lock.js';
import { ralphPaths, shownPath, type RalphPaths } from '../files/paths.js';
import { readRunState, taskListId } from '../files/run-state.js';
import { doubtedApprovals } from '../files/doubted-approvals.js';
import { forecastOfState } from '../status/read-forecast.js';
import { forecastChecks } from './start-forecast.js';
import type { RecordPaths } from '../files/record-paths.js';
import type { Console } from '../ui/screen.js';
import { countStories, openStories, type TaskList } from '../domain/tasks.js';
import { agentInvocation, gatePlace, openSandbox } from './agent-invocation.js';
import type { BoxChoice } from '../box/open-box.js';
import { openRunBox } from './run-box.js';
import { previewGates } from './gate-preview.js';
import { gateEnvironment } from './agent-environment.js';
import { failed, refusalOf, type Check } from './check.js';
import { runChecks, type PreflightOptions } from './preflight.js';
import { checkStopHook } from './hook-check.js';
import { checkScaffold } from './scaffold-check.js';
import { renderUnsupported } from './unsupported.js';
import { startStateChecks } from './start-state-checks.js';
import { dialectOf } from '../agent/dialects.js';

/**
 * `ralph run --dry-run`: every check listed, the configuration, the agent's and the gates' command
 * lines; no call. Exits 0 when nothing failed; otherwise every failure is thrown at once
 * (`refusalOf`), as a real run stops with them.
 */
export async function dryRun(
  resolved: ResolvedSettings,
  options: PreflightOptions,
  out: Console,
  after: { records: RecordPaths; tree?: Check; resetResumes?: boolean; noGates?: boolean; env?: NodeJS.ProcessEnv },
): Promise<number> {
  // Opened first: the agent's program is asked its --version inside it, as in a real run.
  const box = await boxCheck(resolved, options.root, after.env ?? process.env, options.cwd);
  const inBox = box.choice?.box;
  const enclose = inBox
    ? { enclose: inBox.wrap.bind(inBox) }
    : box.check.status === 'failure'
      ? { enclose: { refused: 'the box it would be asked in cannot start here' } }
      : {};
  const { checks, agentPath, tasks } = await runChecks({ ...options, ...enclose });
  // Checked after the agent's, as a real run does: the work tree, then the branch and the resumes.
  if (after.tree) checks.push(after.tree);
  if (tasks) {
    const paths = { ...ralphPaths(options.root, options.tasksPath), records: after.records };
    checks.push(...(await startStateChecks(paths, tasks, resolved.settings, after.resetResumes === true)));
    const iterations = iterationsCheck(tasks, resolved.settings.maxIterations, options.review);
    if (iterations) checks.push(iterations);
    checks.push(...(await dryRunForecast(paths, tasks, resolved, options.review)));
  }
  // A real run meets the lock first: the dry run looks at it without taking it.
  const refusal = await lockRefusal(ralphPaths(options.root).active);
  checks.unshift(refusal ? failed('lock', refusal) : { name: 'lock', status: 'ok', detail: 'no other run is active' });
  const hook = await checkStopHook(options.root, options);
  if (hook) checks.push(hook);
  checks.push(await checkScaffold(options.root));
  const containment = await probeContainment(dirname(ralphPaths(options.root).active), process.env);
  checks.push({ name: 'containment', status: 'ok', detail: `${containment.mode}: ${containment.reason}` });
  checks.push(box.check);
  let command: AgentCommand | undefined;
  let gates: string[] = [];
  try {
    const sandbox = await openSandbox(resolved, options.root, options.cwd);
    const enclosure = { root: options.root, sandbox, box: box.choice?.box };
    command = agentInvocation(resolved, enclosure, agentPath).command(PROMPT_MARK);
    const place = gatePlace(enclosure);
    const env = gateEnvironment(after.env ?? process.env);
    gates = previewGates(resolved, env, { noGates: after.noGates === true, place }, shellQuote);
  } catch (error) {
    if (!(error instanceof RalphError)) throw error;
    checks.push(failed('sandbox', error));
  }
  const promptShown = shownPath(options.cwd, options.promptPath);
  out.line(renderDryRun(resolved, checks, command ? renderCommand(command, promptShown) : [], gates));
  await box.choice?.box?.close();
  const stop = refusalOf(checks);
  if (stop) throw stop;
  return 0;
}

/** The box the run would have, as a check: a named box that cannot start here fails it. */
async function boxCheck(
  resolved: ResolvedSettings,
  root: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ check: Check; choice?: BoxChoice }> {
  try {
    const choice = await openRunBox(resolved, root, env, { dryRun: true, cwd });
    return { check: { name: 'box', status: 'ok', detail: `${choice.mode}: ${choice.reason}` }, choice };
  } catch (error) {
    if (!(error instanceof RalphError)) throw error;
    return { check: failed('box', error) };
  }
}

/** The forecast, as the run would say it when it starts: from the records, for the list as it stands. */
async function dryRunForecast(
  paths: RalphPaths & { records: RecordPaths },
  tasks: TaskList,
  resolved: ResolvedSettings,
  review: boolean,
): Promise<Check[]> {
  const id = taskListId(paths.root, paths.tasks);
  const state = await readRunState(paths.records, id);
  const policy = { review, unconfirmed: await doubtedApprovals(paths.records, id, tasks, state.unconfirmedApprovals) };
  const { complete, total } = countStories(tasks, policy);
  const now = Date.now();
  return forecastChecks(forecastOfState(state, total - complete, now), resolved.settings, now);
}

/**
 * A warning when --max-iterations cannot finish the stories left: each needs an implementing
 * iteration, and with the review cycle on a review too — the fewest a run could take.
 */
export function iterationsCheck(tasks: TaskList, maxIterations: number, review: boolean): Check | undefined {
  const left = openStories(tasks, { review }).length;
  const needed = left * (review ? 2 : 1);
  if (left === 0 || maxIterations >= needed) return undefined;
  const each = review ? 'each takes an implement and a review iteration' : 'each takes an iteration';
  return {
    name: 'iterations',
    status: 'warning',
    detail:
      `--max-iterations ${maxIterations} cannot finish the ${left} ${left === 1 ? 'story' : 'stories'} left ` +
      `(${each}: ${needed} at least); raise it, or expect exit 1 with stories still open`,
  };
}

const STATUS_LABEL: Record<Check['status'], string> = { ok: 'ok', warning: 'warning', failure: 'FAILED' };

/** The checks, one line each: status, what was checked, what was found (and the fix for a failure). */
function renderChecks(checks: readonly Check[]): string[] {
  const width = Math.max(...checks.map((check) => check.name.length)) + 2;
  return checks.map((check) => {
    const fix = check.error?.hint ? ` — ${check.error.hint}` : '';
    return `  ${STATUS_LABEL[check.status].padEnd(9)}${check.name.padEnd(width)}${check.detail}${fix}`;
  });
}

/** What `ralph run --dry-run` prints: the checks, every value with its source, the agent's and gates' command lines. */
function renderDryRun(
  resolved: ResolvedSettings,
  checks: readonly Check[],
  agent: readonly string[],
  gates: readonly string[],
): string {
  const rows: [string, string, string][] = (Object.keys(RUN_OPTIONS) as RunOptionKey[]).map((key) => {
    const value: unknown = resolved.settings[key];
    const format = (RUN_OPTIONS[key].kind as { format?: (value: unknown) => string }).format;
    // An option with no value means its default, which its label says in words (--notify-on's depends on CI).
    const shown =
      value === undefined ? (RUN_OPTIONS[key].defaultLabel ?? 'none') : format ? format(value) : display(value);
    return [key, shown, resolved.sources[key]];
  });
  for (const key of ['args', 'skipPermissions', 'env'] as const) {
    rows.push([`agent.${key}`, display(resolved.agent[key]), resolved.sources[`agent.${key}`]]);
  }
  const width = Math.max(...rows.map(([key]) => key.length)) + 2;
  const valueWidth = Math.min(40, Math.max(...rows.map(([, value]) => value.length)) + 2);
  const table = rows.map(([key, value, source]) => `  ${key.padEnd(width)}${value.padEnd(valueWidth)}${source}`);
  const failures = checks.filter((check) => check.status === 'failure').length;
  const warnings = checks.filter((check) => check.status === 'warning').length;
  const heed = warnings === 0 ? '' : ` (${warnings === 1 ? 'one warning' : `${warnings} warnings`} above)`;
  const verdict =
    failures === 0
      ? `Everything a run needs checks out${heed}.`
      : `${failures} ${failures === 1 ? 'check fails' : 'checks fail'}: a run would stop before its first call.`;
  return [
    'Dry run: the agent was not called.',
    '',
    'Checks:',
    ...renderChecks(checks),
    verdict,
    '',
    'Resolved configuration (flag > environment > ralph/config.json > default):',
    ...table,
    ...agent,
    ...renderUnsupported(dialectOf(resolved.settings.agent)),
    ...gates,
  ]
    .join('\n')
    .trimEnd();
}

function renderCommand(command: AgentCommand, promptShown: string): string[] {
  const argv = command.args.map((arg) =>
    arg === PROMPT_MARK ? `"$(cat ${shellQuote(promptShown)})"` : shellQuote(arg),
  );
  const stdin = command.input === undefined ? '' : ` < ${shellQuote(promptShown)}`;
  return [
    '',
    'Agent command (run in the repository root, stdin /dev/null, in its own process group):',
    `  ${[shellQuote(command.file), ...argv].join(' ')}${stdin}`,
    `  (the prompt is ${promptShown}, then the iteration's mode section and any loop feedback)`,
  ];
}

/** Stands for the prompt in a command built for display. */
const PROMPT_MARK = '\u0000prompt\u0000';

function display(value: unknown): string {
  if (value === undefined) return 'none';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Quotes an argument for a POSIX shell when it needs it. */
function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
