import { readFileWithin } from '../files/file-within.js';
import { dialectOf } from '../agent/dialects.js';
import { askAgent, type Enclose } from '../agent/ask-agent.js';
import { sandboxReachWarning } from '../agent/sandbox.js';
import { PACKAGE_ROOT } from '../package-info.js';
import { access, constants, realpath } from 'node:fs/promises';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { pathExists } from '../files/missing-file.js';
import { isErrno, RalphError } from '../errors.js';
import { ralphPaths, shownPath, type RalphPaths } from '../files/paths.js';
import { readPromptFile } from '../files/prompt-file.js';
import { recordedReplay } from '../files/last-run.js';
import type { RecordPaths, RunPaths } from '../files/record-paths.js';
import { answerDecide, decideAnswer, decideQuestion, resolveBlocked } from '../files/signal-files.js';
import { ownFolder, readOwnFile, readOwnFileNoLink } from '../files/own-file.js';
import { openStories, type TaskList } from '../domain/tasks.js';
import { readTasks } from '../files/tasks.js';
import { misspeltTaskKeys } from '../files/task-key-typos.js';
import { checkAgent, type AgentCheckOptions } from './agent-check.js';
import { failed, type Check } from './check.js';
import { checkService } from './service-check.js';
import { exampleRefusal } from './example-task-list.js';
import { replaysAgentBin } from '../answer/replay-agent-bin.js';

/** What a run may start with once every check passed. */
export interface CheckedStart {
  paths: RalphPaths;
  promptPath: string;
  tasks: TaskList;
  /** The agent's executable, resolved; absent in sandbox mode and when nothing is left to do. */
  agentPath?: string;
  /** Every story is already complete: the agent is resolved only if the gates send the loop back to work. */
  nothingLeft: boolean;
  /** The first line of the agent's `--version`, when it said one. */
  agentVersion?: string;
  /** What the run says before it starts, without refusing (keys of the task list it does not read). */
  warnings: string[];
}

export interface PreflightOptions extends Omit<AgentCheckOptions, 'needed'> {
  cwd: string;
  root: string;
  promptPath: string;
  /** The task list `--tasks` chose (absolute); default ralph/tasks.json. */
  tasksPath?: string;
  /** ralph's records: the last run's flags say whether `ralph answer --run` would go on. */
  records: RecordPaths;
  /** Whether stories need a review to count as complete. */
  review: boolean;
  /** --yes: run even on the example task list. */
  yes: boolean;
  /** --skip-preflight: the agent's login and its API's reachability are not probed. */
  skipPreflight: boolean;
  /** How long the API may take to answer the reachability probe (tests inject a short one). */
  serviceTimeoutMs?: number;
  /** --sandbox: the agent runs in a Docker sandbox that mounts the repository. */
  sandboxed: boolean;
  /** The PATH ralph finds its own programs on (git, docker): its own, not the agent's. */
  hostPath: string;
  /**
   * The run's box, around what the agent's program is asked before the first call; `refused` where
   * the box the run names cannot start (the dry run goes on to list the rest): then nothing is asked.
   */
  enclose?: Enclose | { refused: string };
}

/**
 * Everything that must hold before the first agent call, each as a check. Nothing here calls
 * the agent or changes a file but ralph/logs/.
 */
export async function runChecks(
  options: PreflightOptions,
): Promise<{ checks: Check[]; ready?: CheckedStart; agentPath?: string; agentVersion?: string; tasks?: TaskList }> {
  const paths = ralphPaths(options.root, options.tasksPath);
  const shown = (path: string) => shownPath(options.cwd, path);
  const checks: Check[] = [];
  const add = (check: Check) => checks.push(check);

  // The task list first: a ralph.sh layout without ralph/ is told how to import it before anything else.
  const tasks = await readTaskList(paths, shown);
  const nothingLeft = tasks.list !== undefined && openStories(tasks.list, { review: options.review }).length === 0;
  // The agent is asked while the other files are read: its answer takes longest. The checks keep their order.
  const asked = checkAgentService(options, nothingLeft);
  asked.catch(() => undefined);
  const logDir = checkLogDir(paths.root, paths.logs, shown(paths.logs));
  logDir.catch(() => undefined);
  add(tasks.check);
  add(await checkPrompt(options.promptPath, paths, shown));
  if (tasks.list) add(exampleCheck(tasks.list, shown(paths.tasks), options.yes));
  add(await checkPendingHuman({ ...paths, records: options.records }, shown));
  const { agent, service } = await asked;
  checks.push(...agent.checks, ...(service?.checks ?? []));
  add(await logDir);
  const sandbox = options.sandboxed ? await sandboxCheck(options) : undefined;
  if (sandbox) add(sandbox);

  const found = {
    ...(agent.path ? { agentPath: agent.path } : {}),
    ...(service?.version ? { agentVersion: service.version } : {}),
  };
  if (!tasks.list) return { checks, ...found };
  if (checks.some((check) => check.status === 'failure')) return { checks, ...found, tasks: tasks.list };
  const ready: CheckedStart = {
    paths,
    promptPath: options.promptPath,
    tasks: tasks.list,
    nothingLeft,
    ...found,
    warnings: [tasks.warning, sandbox?.detail].filter((warning) => warning !== undefined),
  };
  return { checks, ready, ...found, tasks: tasks.list };
}

/**
 * The agent, found; then — before any paid call — the real client's login and its API (a run with
 * nothing to do calls no agent).
 */
async function checkAgentService(options: PreflightOptions, nothingLeft: boolean) {
  const agent = await checkAgent({ ...options, needed: !nothingLeft });
  const { enclose } = options;
  if (typeof enclose === 'object') {
    // Its program and environment may be the agent's own (ralph/config.json): never run outside the box.
    const detail = `not asked: ${enclose.refused}`;
    return { agent, service: { checks: [{ name: 'version', status: 'warning', detail } satisfies Check] } };
  }
  const service =
    agent.path && !nothingLeft
      ? await checkService({
          agentPath: agent.path,
          dialect: dialectOf(options.agentKind),
          agentEnv: options.agentEnv,
          ask: askAgent(agent.path, options.agentEnv, options.root, enclose),
          skip: options.skipPreflight,
          ...(options.serviceTimeoutMs === undefined ? {} : { timeoutMs: options.serviceTimeoutMs }),
        })
      : undefined;
  return { agent, service };
}

/** With --sandbox, a warning when what ralph runs on this machine is the agent's to rewrite. */
async function sandboxCheck(options: PreflightOptions): Promise<Check | undefined> {
  // An empty entry of PATH is the current folder.
  const folders = options.hostPath.split(delimiter).map((folder) => realFolder(resolve(options.cwd, folder || '.')));
  const warning = sandboxReachWarning(await realFolder(options.root), PACKAGE_ROOT, await Promise.all(folders));
  return warning === undefined ? undefined : { name: 'sandbox', status: 'warning', detail: warning };
}

/**
 * A folder's real path, links resolved — also for one that does not exist yet (node_modules/.bin
 * before an install, which the agent may make): its nearest existing parent's, and the rest.
 */
async function realFolder(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realFolder(parent), basename(path));
  }
}

async function checkPrompt(promptPath: string, paths: RalphPaths, shown: (path: string) => string): Promise<Check> {
  const hint =
    promptPath === paths.prompt ? 'run `ralph init` to create it, or pass --prompt FILE' : 'check the --prompt path';
  // Without ralph/ at all there is one thing to fix, said by the task list's check (init, or import
  // the ralph.sh files): the prompt it would bring is no second failure beside it.
  if (promptPath === paths.prompt && !(await pathExists(paths.dir)))
    return { name: 'prompt', status: 'warning', detail: `${shown(promptPath)} is made with ralph/` };
  try {
    await readPromptFile(paths.root, promptPath, shown(promptPath), hint);
    return { name: 'prompt', status: 'ok', detail: shown(promptPath) };
  } catch (error) {
    if (error instanceof RalphError) return failed('prompt', error);
    throw error;
  }
}

async function readTaskList(
  paths: RalphPaths,
  shown: (path: string) => string,
): Promise<{ check: Check; list?: TaskList; warning?: string }> {
  const name = shown(paths.tasks);
  const text = readFileWithin(paths.root, paths.tasks);
  if (text === undefined) {
    // The ralph.sh layout keeps its task list in scripts/ralph/prd.json: the way in is an import.
    const legacy = await readOwnFile(`${paths.root}/scripts/ralph/prd.json`);
    const hint =
      paths.tasks !== ralphPaths(paths.root).tasks
        ? 'check the task list named by --tasks, RALPH_TASKS or config.json (`ralph lists` shows the lists)'
        : legacy === undefined
          ? 'run `ralph init` to create it'
          : 'import the ralph.sh files with `ralph init --from scripts/ralph`';
    return { check: failed('task list', new RalphError('setup', `${name} not found`, hint)) };
  }
  const { parsed, json } = readTasks(text);
  if (!parsed.ok)
    return {
      check: failed(
        'task list',
        new RalphError('setup', `${name} is not a valid task list: ${parsed.error}`, 'fix the file and run again'),
      ),
    };
  const { stories } = parsed.tasks;
  const counted = `${name}: ${stories.length} ${stories.length === 1 ? 'story' : 'stories'}`;
  const misspelt = misspeltTaskKeys(json);
  if (misspelt.length === 0) return { check: { name: 'task list', status: 'ok', detail: counted }, list: parsed.tasks };
  const warning = `${name} has keys ralph does not read: ${misspelt.join(', ')}`;
  return {
    check: { name: 'task list', status: 'warning', detail: `${counted}; ${warning}` },
    list: parsed.tasks,
    warning,
  };
}

function exampleCheck(tasks: TaskList, shown: string, yes: boolean): Check {
  if (!tasks.example) return { name: 'example', status: 'ok', detail: 'the task list is your own' };
  if (yes)
    return { name: 'example', status: 'warning', detail: `${shown} is still the example; running it anyway (--yes)` };
  return failed('example', exampleRefusal(shown));
}

/** A BLOCKED or an unanswered DECIDE waits for a human: no agent call until it is resolved. */
async function checkPendingHuman(paths: RunPaths, shown: (path: string) => string): Promise<Check> {
  // Quoted in the refusal and in last-run.json, which the next agent reads: a link it planted is refused.
  const blocked = await readOwnFileNoLink(paths.blocked);
  if (blocked !== undefined) {
    const reason = blocked.split('\n').slice(1).join(' ').trim() || blocked.trim();
    const fix = resolveBlocked(shown(paths.blocked), await answerReplays(paths));
    return failed('signals', new RalphError('blocked', `the loop is blocked: ${reason}`, fix));
  }
  const decide = await readOwnFileNoLink(paths.decide);
  if (decide !== undefined && !decideAnswer(decide)) {
    const fix = answerDecide(shown(paths.decide), await answerReplays(paths));
    return failed('signals', new RalphError('decide', `a decision is pending: ${decideQuestion(decide)}`, fix));
  }
  return {
    name: 'signals',
    status: 'ok',
    detail: decide === undefined ? 'no BLOCKED, no DECIDE' : 'the decision is answered',
  };
}

/**
 * Whether `ralph answer --run` would go on: it replays the recorded run's flags (the run that asked,
 * since every start is refused while a question waits), and refuses an --agent-bin from outside.
 */
async function answerReplays(paths: RunPaths): Promise<boolean> {
  return replaysAgentBin((await recordedReplay(paths.records))?.runArgs, paths.root);
}

async function checkLogDir(root: string, dir: string, shown: string): Promise<Check> {
  // Without ralph/ the run is refused, and a refusal writes nothing: not even this folder.
  if (!(await pathExists(dirname(dir))))
    return { name: 'logs', status: 'warning', detail: `${shown} is made with ralph/ (run \`ralph init\`)` };
  try {
    // A real folder of the repository: a linked ralph/ or ralph/logs is refused (io), never written through.
    await ownFolder(root, dir);
    await access(dir, constants.W_OK);
    return { name: 'logs', status: 'ok', detail: `${shown} is writable` };
  } catch (error) {
    if (error instanceof RalphError) return failed('logs', error);
    const why = isErrno(error, 'EACCES') ? 'permission denied' : (error as Error).message;
    return failed(
      'logs',
      new RalphError(
        'setup',
        `cannot write the log directory ${shown}: ${why}`,
        'fix its permissions or free the path',
      ),
    );
  }
}
