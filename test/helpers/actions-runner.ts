import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { condition, substitute, type ExpressionContext, type ExpressionValue } from './workflow-expressions.js';
import { readOutputFile } from './workflow-commands.js';
import { parseYaml, type YamlValue } from './workflow-yaml.js';

/**
 * The GitHub Actions runner, as far as a workflow's security rests on it, for the generated
 * workflow: each job on a fresh "runner" (its own $HOME, workspace and $RUNNER_TEMP), the steps of
 * a job sharing them; every `run:` step verbatim through `bash --noprofile --norc -eo pipefail`;
 * the file commands ($GITHUB_ENV with its `KEY<<DELIM` form, $GITHUB_PATH, $GITHUB_OUTPUT,
 * $GITHUB_STEP_SUMMARY) in fresh files under $RUNNER_TEMP/_runner_file_commands/ for each step and
 * applied to the steps after it, as the runner does (src/Runner.Worker/FileCommandManager.cs).
 * `uses:` steps are stood in for: checkout clones the "GitHub" bare repository, upload- and
 * download-artifact copy folders, setup-node does nothing.
 */
export interface SimulatedRun {
  /** The bare repository standing in for GitHub, and the branch the workflow was dispatched on. */
  github: { bare: string; ref: string; token: string };
  inputs: Record<string, string | boolean>;
  secrets: Record<string, string>;
  /** Folders on the image's PATH before the system's (fake npm, npm's global bin); `{runner}`: this runner's folder. */
  imagePath: string[];
  /** More of the runner image's environment (test scaffolding for the agent's stand-in). */
  imageEnv?: Record<string, string>;
  /** Appended to before every step: `== job/step`, so a planted script's record can be placed. */
  stepLog: string;
  /** Only these jobs (with their needs taken from `needs`), e.g. the push job alone. */
  only?: string[];
  needs?: Record<string, { result: string; outputs: Record<string, string> }>;
  /** The run's artifacts folder (shared by its jobs). */
  artifacts?: string;
}

export interface StepRecord {
  job: string;
  name: string;
  outcome: 'success' | 'failure' | 'skipped';
  stdout: string;
  stderr: string;
  /** What the step wrote to the job summary ($GITHUB_STEP_SUMMARY). */
  summary?: string;
}

export const SERVER_URL = 'https://github.example';
export const REPOSITORY = 'owner/repo';

type Map = Record<string, YamlValue>;
const asMap = (value: YamlValue | undefined): Map =>
  value && typeof value === 'object' && !Array.isArray(value) ? value : {};
const asString = (value: YamlValue | undefined) => (typeof value === 'string' ? value : undefined);

/** Runs the workflow's jobs in order; returns every step's record and each job's result. */
export function simulateWorkflow(workflowText: string, run: SimulatedRun) {
  const workflow = asMap(parseYaml(workflowText));
  const jobs = asMap(workflow.jobs);
  const artifacts = run.artifacts ?? mkdtempSync(join(tmpdir(), 'ralph-sim-artifacts-'));
  const needsState: Record<string, { result: string; outputs: Record<string, string> }> = { ...run.needs };
  const steps: StepRecord[] = [];
  for (const [id, jobValue] of Object.entries(jobs)) {
    if (run.only && !run.only.includes(id)) continue;
    const job = asMap(jobValue);
    const result = runJob(id, job, { run, artifacts, needs: needsState, steps });
    needsState[id] = result;
  }
  return { steps, jobs: needsState, artifacts };
}

function runJob(
  id: string,
  job: Map,
  shared: { run: SimulatedRun; artifacts: string; needs: SimulatedRun['needs'] & object; steps: StepRecord[] },
): { result: string; outputs: Record<string, string> } {
  const { run } = shared;
  const needNames = ([] as YamlValue[]).concat(job.needs ?? []).map(String);
  const needs = Object.fromEntries(
    needNames.map((name) => [name, shared.needs[name] ?? { result: 'skipped', outputs: {} }]),
  );
  const base = mkdtempSync(join(tmpdir(), `ralph-sim-${id}-`));
  const home = join(base, 'home');
  const temp = join(base, 'temp');
  const workspace = join(base, 'work', 'repo');
  for (const dir of [home, temp, workspace, join(temp, '_runner_file_commands')]) mkdirSync(dir, { recursive: true });
  const stepOutputs: Record<string, { outcome: string; outputs: Record<string, string> }> = {};
  const jobEnv: Record<string, string> = {};
  const addedPath: string[] = [];
  let failed = false;
  const context = (): ExpressionContext => ({
    status: (name) => (name === 'always' ? true : name === 'cancelled' ? false : name === 'failure' ? failed : !failed),
    lookup: (path) => lookup(path, { run, needs, stepOutputs, temp }),
  });
  const anyNeedFailed = Object.values(needs).some((need) => need.result !== 'success');
  failed = anyNeedFailed;
  if (!condition(asString(job.if), context())) return { result: 'skipped', outputs: {} };
  failed = false;
  for (const stepValue of ([] as YamlValue[]).concat(job.steps ?? [])) {
    const step = asMap(stepValue);
    const name = asString(step.name) ?? asString(step.uses) ?? 'run';
    const stepId = asString(step.id);
    if (!condition(asString(step.if), context())) {
      shared.steps.push({ job: id, name, outcome: 'skipped', stdout: '', stderr: '' });
      if (stepId) stepOutputs[stepId] = { outcome: 'skipped', outputs: {} };
      continue;
    }
    appendFileSync(run.stepLog, `== ${id}/${name}\n`);
    const files = Object.fromEntries(
      ['set_env', 'add_path', 'set_output', 'step_summary', 'save_state'].map((kind) => {
        const path = join(temp, '_runner_file_commands', `${kind}_${randomUUID()}`);
        writeFileSync(path, '');
        return [kind, path];
      }),
    );
    const stepEnv = Object.fromEntries(
      Object.entries(asMap(step.env)).map(([key, value]) => [key, substitute(asString(value) ?? '', context())]),
    );
    const env: NodeJS.ProcessEnv = {
      ...runnerImageEnv(run, home, base),
      PATH: [
        ...addedPath,
        ...run.imagePath.map((dir) => dir.replace('{runner}', base)),
        '/usr/local/bin',
        '/usr/bin',
        '/bin',
      ].join(':'),
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: temp,
      GITHUB_ENV: files.set_env,
      GITHUB_PATH: files.add_path,
      GITHUB_OUTPUT: files.set_output,
      GITHUB_STEP_SUMMARY: files.step_summary,
      GITHUB_STATE: files.save_state,
      ...jobEnv,
      ...stepEnv,
    };
    const record = step.uses
      ? useAction(asString(step.uses)!, asMap(step.with), {
          run,
          workspace,
          artifacts: shared.artifacts,
          context: context(),
        })
      : runScript(substitute(asString(step.run) ?? '', context()), {
          env,
          cwd: step['working-directory'] ? substitute(asString(step['working-directory']) ?? '', context()) : workspace,
          temp,
          shell: asString(step.shell),
        });
    const outcome = record.ok ? 'success' : 'failure';
    if (!record.ok) failed = true;
    // The runner reads the file commands when the step ends, whatever its outcome.
    for (const [key, value] of readOutputFile(readFileSync(files.set_env!, 'utf8'))) jobEnv[key] = value;
    for (const line of readFileSync(files.add_path!, 'utf8').split('\n').filter(Boolean)) addedPath.unshift(line);
    const outputs = {
      ...('outputs' in record && record.outputs ? record.outputs : {}),
      ...Object.fromEntries(readOutputFile(readFileSync(files.set_output!, 'utf8'))),
    };
    if (stepId) stepOutputs[stepId] = { outcome, outputs };
    const summary = readFileSync(files.step_summary!, 'utf8');
    shared.steps.push({
      job: id,
      name,
      outcome,
      stdout: record.stdout,
      stderr: record.stderr,
      ...(summary ? { summary } : {}),
    });
  }
  const outputs = Object.fromEntries(
    Object.entries(asMap(job.outputs)).map(([key, value]) => [key, substitute(asString(value) ?? '', context())]),
  );
  return { result: failed ? 'failure' : 'success', outputs };
}

/** What the runner's own environment gives every step: its variables, a $HOME of this runner. */
function runnerImageEnv(run: SimulatedRun, home: string, base: string): NodeJS.ProcessEnv {
  return {
    RUNNER_TOOL_CACHE: base,
    HOME: home,
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_SERVER_URL: SERVER_URL,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_REF: `refs/heads/${run.github.ref}`,
    GITHUB_REF_NAME: run.github.ref,
    GITHUB_RUN_ID: '4242',
    // The network: GitHub's https URL, with the right token only, reaches the bare repository.
    GIT_CONFIG_SYSTEM: networkConfig(run),
    ...run.imageEnv,
  };
}

function networkConfig(run: SimulatedRun): string {
  const path = join(dirname(run.stepLog), 'network.gitconfig');
  if (!existsSync(path))
    writeFileSync(
      path,
      `[url "${run.github.bare}"]\n\tinsteadOf = https://x-access-token:${run.github.token}@github.example/${REPOSITORY}.git\n`,
    );
  return path;
}

function lookup(
  path: string[],
  state: {
    run: SimulatedRun;
    needs: Record<string, { result: string; outputs: Record<string, string> }>;
    stepOutputs: Record<string, { outcome: string; outputs: Record<string, string> }>;
    temp: string;
  },
): ExpressionValue {
  const [head, a, b, c] = path;
  if (head === 'inputs') return state.run.inputs[a!] ?? '';
  if (head === 'secrets') return state.run.secrets[a!] ?? '';
  if (head === 'runner' && a === 'temp') return state.temp;
  if (head === 'github') {
    const github: Record<string, string> = { token: state.run.github.token, ref: `refs/heads/${state.run.github.ref}` };
    github.ref_name = state.run.github.ref;
    github.repository = REPOSITORY;
    return github[a!] ?? '';
  }
  if (head === 'steps') {
    const step = state.stepOutputs[a!];
    if (b === 'outcome' || b === 'conclusion') return step?.outcome ?? '';
    return b === 'outputs' ? (step?.outputs[c!] ?? '') : '';
  }
  if (head === 'needs') {
    const need = state.needs[a!];
    if (b === 'result') return need?.result ?? '';
    return b === 'outputs' ? (need?.outputs[c!] ?? '') : '';
  }
  throw new Error(`actions-runner: no context ${path.join('.')}`);
}

function runScript(script: string, options: { env: NodeJS.ProcessEnv; cwd: string; temp: string; shell?: string }) {
  const file = join(options.temp, `${randomUUID()}.sh`);
  writeFileSync(file, script);
  const [command, ...args] = (options.shell ?? 'bash --noprofile --norc -eo pipefail {0}')
    .split(' ')
    .map((part) => (part === '{0}' ? file : part)) as [string, ...string[]];
  const result = spawnSync(command, args, { cwd: options.cwd, env: options.env, encoding: 'utf8', timeout: 120_000 });
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

function useAction(
  uses: string,
  inputs: Map,
  state: { run: SimulatedRun; workspace: string; artifacts: string; context: ExpressionContext },
): { ok: boolean; stdout: string; stderr: string; outputs?: Record<string, string> } {
  const input = (key: string) => substitute(asString(inputs[key]) ?? '', state.context);
  try {
    if (uses.startsWith('actions/checkout@')) checkout(state.run, state.workspace, input('persist-credentials'));
    else if (uses.startsWith('actions/upload-artifact@')) {
      // The action's outputs, as GitHub's: an artifact's URL only when files were uploaded.
      if (upload(input('path'), input('name'), state, input('if-no-files-found')))
        return {
          ok: true,
          stdout: '',
          stderr: '',
          outputs: { 'artifact-url': `${SERVER_URL}/${REPOSITORY}/actions/runs/4242/artifacts/${input('name')}` },
        };
    } else if (uses.startsWith('actions/download-artifact@')) {
      const from = join(state.artifacts, input('name'));
      if (!existsSync(from)) throw new Error(`Artifact not found for name: ${input('name')}`);
      cpSync(from, resolveIn(state.workspace, input('path')), { recursive: true });
    } else if (!uses.startsWith('actions/setup-node@')) throw new Error(`actions-runner: no stand-in for ${uses}`);
    return { ok: true, stdout: '', stderr: '' };
  } catch (error) {
    return { ok: false, stdout: '', stderr: (error as Error).message };
  }
}

/** actions/checkout: the dispatched branch, every branch as origin's, the token in .git/config unless told not to. */
function checkout(run: SimulatedRun, workspace: string, persist: string) {
  execFileSync('git', ['clone', '--quiet', '--branch', run.github.ref, run.github.bare, workspace]);
  if (persist !== 'false')
    execFileSync(
      'git',
      ['config', 'http.https://github.example/.extraheader', `AUTHORIZATION: basic ${run.github.token}`],
      {
        cwd: workspace,
      },
    );
}

function upload(paths: string, name: string, state: { workspace: string; artifacts: string }, ifNone: string): boolean {
  const lines = paths
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const excluded = lines.filter((line) => line.startsWith('!')).map((line) => globToRegExp(line.slice(1)));
  const files: string[] = [];
  const roots: string[] = [];
  for (const line of lines.filter((item) => !item.startsWith('!'))) {
    const path = resolveIn(state.workspace, line);
    if (!existsSync(path)) continue;
    roots.push(statSync(path).isDirectory() ? path.replace(/\/$/, '') : dirname(path));
    for (const file of statSync(path).isDirectory() ? walk(path) : [path])
      if (!excluded.some((pattern) => pattern.test(relative(state.workspace, file)))) files.push(file);
  }
  if (files.length === 0) {
    if (ifNone === 'error') throw new Error(`No files were found with the provided path: ${paths}`);
    return false;
  }
  const root = roots.reduce((common, path) => {
    while (!`${path}/`.startsWith(`${common}/`)) common = dirname(common);
    return common;
  });
  for (const file of files) cpSync(file, join(state.artifacts, name, relative(root, file)));
  return true;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
}

function resolveIn(workspace: string, path: string): string {
  return isAbsolute(path) ? path : join(workspace, path);
}
