import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { detectGates, type DetectedGate } from '../gates/detect-gates.js';
import { acceptAsLeftBehind } from '../files/run-state.js';
import { runPaths } from '../git/run-paths.js';
import { uncommittedChanges } from '../git/work-tree.js';
import { findRepoRoot } from '../git/repository.js';
import { applyPlan, type ItemOutcome } from '../init/apply-plan.js';
import { GITHUB_WORKFLOW, type CiProvider } from '../init/ci-providers.js';
import { GITHUB_MATRIX_WORKFLOW } from '../init/matrix-workflow.js';
import { legacyPromptNotes, readRalphSh, type RalphShSetup } from '../init/import-ralph-sh.js';
import { promptLeansOnItsClient, RALPH_SH_PROMPTS } from '../agent/ralph-sh.js';
import type { AgentDialect } from '../agent/dialect.js';
import { planInit } from '../init/init-plan.js';
import { nextSteps, type Whereabouts } from '../init/next-steps.js';
import { findTaskLists } from '../lists/task-lists.js';
import { checkInstallSpec } from '../init/install-spec.js';
import { chooseInstall, updateWorkflows, type InstallChoice } from '../init/install-choice.js';
import type { AskOptions } from '../init/registry.js';
import { RALPH_WORKFLOWS } from '../init/workflow-install.js';
import { agentNotes, agentToSetUp, checkAgentKind, loggedIn, refusesRoot } from './init-agent.js';
import { RalphError } from '../errors.js';
import { oneLine } from '../text/neutralise.js';
import { pathExists } from '../files/missing-file.js';
import { resetPaths } from '../init/reset-files.js';
import { stepsDone } from '../init/steps-done.js';
import { brokenConfigReason } from '../init/config-health.js';

export interface InitOptions {
  cwd: string;
  /** Re-write what the other flags name (the workflow with --ci) and ralph's schema copy; never the user's files. */
  force?: boolean;
  /** The user's files to replace with their templates, each after a backup (`--reset tasks.json`, repeatable). */
  reset?: readonly string[];
  /** Also write a CI workflow. */
  ci?: CiProvider;
  /** A ralph.sh folder to import (its prd.json, progress.txt and prompt file). */
  from?: string;
  /** The agent kind to set up and write to the config (`--agent <kind>`); else the config's, else the default. */
  agent?: string;
  /** What the workflow installs instead of this package at this version (a git URL, a tarball, a path). */
  install?: string;
  /** With --ci: pack this ralph into ralph/vendor/ and have the workflow install that file. */
  vendor?: boolean;
  /** With --ci github: the matrix workflow, one job per task list and then the integration. */
  matrix?: boolean;
  /** Where (and how long) to ask whether this version is on the npm registry: the tests' registry. */
  registry?: AskOptions;
  stdout?: NodeJS.WritableStream;
}

/** `ralph init`: scaffolds ralph/ at the repository root and says what to do next. */
export async function initCommand(options: InitOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  // Checked first: a bad flag writes nothing.
  const installSpec = checkInstallSpec(options.install, options.ci, options.vendor ?? false);
  const ci = ciChoice(options);
  const named = checkAgentKind(options.agent);
  const reset = resetPaths(options.reset ?? []);
  const root = await findRepoRoot(options.cwd);
  await requireExisting(root, reset);
  const from =
    options.from === undefined
      ? undefined
      : await readRalphSh(resolve(options.cwd, options.from), options.cwd, RALPH_SH_PROMPTS);
  const gates = await detectGates(root);
  const { agent, dialect, agentPath } = await agentToSetUp(root, options.cwd, named, options.ci !== undefined);
  const choice = await installFor(root, options, installSpec, ci.workflow);
  const { install, packed } = choice;
  const outcomes = await applyPlan(
    root,
    planInit({
      ...ci,
      gates,
      ...(from ? { from } : {}),
      ...(install === undefined ? {} : { install }),
      agent,
      writeKind: named !== undefined,
    }),
    { force: options.force ?? false, reset },
  );
  if (ci.workflow !== undefined) await updateExisting(root, outcomes, choice, ci.workflow);
  if (packed) outcomes.push({ path: packed.path, result: packed.existed ? 'replaced' : 'created' });
  const written = outcomes
    .filter((outcome) => ['created', 'replaced', 'updated', 'reset'].includes(outcome.result))
    .map((outcome) => outcome.path);
  const { records } = await runPaths(root, { say: (line) => process.stderr.write(`${line}\n`) });
  await acceptAsLeftBehind(records, written, await uncommittedChanges(root));
  const where: Whereabouts = {
    agent,
    agentFound: agentPath !== undefined,
    root: refusesRoot(dialect),
    imported: from !== undefined,
    alsoWritten: alsoWritten(ci.workflow, outcomes, packed?.path),
    loggedIn: await loggedIn(dialect, agentPath),
    ...(await stepsDone(root, agent.stopHook ? [agent.stopHook.path] : [], written)),
    ...(ci.matrix && (await findTaskLists(root).catch(() => [])).length === 0 ? { listsMissing: true } : {}),
  };
  const brokenConfig = await brokenConfigReason(root);
  const notes = [
    ...(brokenConfig === undefined ? [] : ['', ...brokenConfigNote(brokenConfig)]),
    ...importNotes(from, dialect),
    ...choice.notes,
    ...(named === undefined ? [] : await agentNotes(root, named, outcomes)),
  ];
  stdout.write(renderInit(root, outcomes, gates, where, notes));
  return 0;
}

/** A config init kept but `ralph run` refuses: said plainly, and init still exits 0 (it did its part). */
function brokenConfigNote(reason: string): string[] {
  return [
    `${pc.yellow('warning:')} ralph/config.json is broken: ralph run refuses it until it is fixed. init never replaces it:`,
    `  ${oneLine(reason)}`,
    '  (or start again from the template: ralph init --reset config.json keeps a backup of yours)',
  ];
}

/** What `--from` imported, and how the old prompt differs from ralph's for the client ralph runs. */
function importNotes(from: RalphShSetup | undefined, dialect: AgentDialect): string[] {
  if (from === undefined) return [];
  const notes = legacyPromptNotes(from, (text) => promptLeansOnItsClient(text, dialect));
  return ['', `Imported from ${from.shown} (nothing there was changed):`, ...notes.map((note) => `  ${note}`)];
}

/** `--reset` replaces a file the user has: one that is not there is a mistake, said before anything is written. */
async function requireExisting(root: string, paths: readonly string[]): Promise<void> {
  for (const path of paths)
    if (!(await pathExists(join(root, path))))
      throw new RalphError(
        'usage',
        `--reset ${path}: there is no ${path} to replace`,
        'run `ralph init` without --reset to create the missing files',
      );
}

/** What the workflow installs (install-choice.ts decides); nothing to decide without --ci. */
async function installFor(
  root: string,
  options: InitOptions,
  spec: string | undefined,
  workflow: string | undefined,
): Promise<InstallChoice> {
  if (workflow === undefined) return { notes: [] };
  return chooseInstall({
    root,
    ...(spec === undefined ? {} : { spec }),
    vendor: options.vendor ?? false,
    writesWorkflow: (options.force ?? false) || !(await pathExists(join(root, workflow))),
    ...(options.registry ? { registry: options.registry } : {}),
  });
}

/**
 * The workflows ralph wrote before, pointed at what the flags (or the registry's answer) say they
 * install: the one `--ci` names, in place of its "kept" line, and the other one ralph wrote.
 */
async function updateExisting(root: string, outcomes: ItemOutcome[], choice: InstallChoice, workflow: string) {
  const index = outcomes.findIndex((outcome) => outcome.path === workflow);
  const kept = index >= 0 && outcomes[index]?.result === 'exists';
  for (const outcome of await updateWorkflows(root, choice, { path: workflow, kept })) {
    const at = outcomes.findIndex((item) => item.path === outcome.path);
    if (at >= 0) outcomes[at] = outcome;
    else outcomes.push(outcome);
  }
}

/** What init wrote besides ralph/, the hook settings and .gitignore, for the commit step: workflows, a tarball. */
function alsoWritten(workflow: string | undefined, outcomes: readonly ItemOutcome[], packed: string | undefined) {
  const workflows = RALPH_WORKFLOWS.filter(
    (path) => path === workflow || outcomes.some((outcome) => outcome.path === path && outcome.result === 'updated'),
  );
  return [...workflows, ...(packed ? [packed] : [])];
}

/** The report: one line per item that matters, then the next steps. */
function renderInit(
  root: string,
  outcomes: readonly ItemOutcome[],
  gates: readonly DetectedGate[] = [],
  where: Whereabouts,
  notes: readonly string[] = [],
): string {
  const lines = [`${pc.bold('ralph init')} in ${root}`];
  const isKept = (outcome: ItemOutcome) => outcome.result === 'exists' || outcome.result === 'unchanged';
  const changed = outcomes.filter((outcome) => !isKept(outcome) && outcome.result !== 'skipped');
  const kept = outcomes.filter(isKept);
  for (const outcome of changed) lines.push(`  ${describe(outcome)}`);
  if (changed.length === 0) lines.push('  nothing changed: ralph is already set up here');
  if (kept.length > 0) {
    lines.push(`  already exists, kept: ${kept.map((outcome) => outcome.path).join(', ')}`);
    if (kept.some((outcome) => outcome.result === 'exists' && outcome.yours))
      lines.push(
        pc.dim(
          '  (yours: ralph init --reset <file> replaces one with its template after a backup; --force never does;' +
            ` ${addedTo(['.gitignore', ...(where.agent.stopHook ? [where.agent.stopHook.path] : [])])})`,
        ),
      );
  }
  for (const outcome of outcomes)
    if (outcome.result === 'skipped') lines.push(`  ${pc.yellow('warning:')} ${outcome.warning}`);
  const config = outcomes.find((outcome) => outcome.path === 'ralph/config.json');
  if (config?.result === 'created' || config?.result === 'replaced') lines.push('', ...describeGates(gates));
  lines.push(...notes, '', ...nextSteps(where));
  return lines.join('\n') + '\n';
}

/** What init wrote into the config's `gates`, so the user can check it. */
function describeGates(gates: readonly DetectedGate[]): string[] {
  if (gates.length === 0)
    return [
      'Quality gates: none detected; ralph/config.json has "gates": [] (add your build and test commands there).',
    ];
  return [
    'Quality gates written to ralph/config.json (a COMPLETE claim must pass them):',
    ...gates.map(
      (gate) => `  ${gate.name.padEnd(10)} ${gate.command}${gate.after ? pc.dim(`  (after ${gate.after})`) : ''}`,
    ),
  ];
}

function describe(outcome: ItemOutcome): string {
  switch (outcome.result) {
    case 'created':
      return `${pc.green('created ')} ${outcome.path}`;
    case 'replaced':
      return `${pc.yellow('replaced')} ${outcome.path}`;
    case 'reset':
      return `${pc.yellow('reset   ')} ${outcome.path} (the old one is ${outcome.backup})`;
    case 'updated':
      return `${pc.green('updated ')} ${outcome.path} (added ${outcome.added.join(', ')})`;
    case 'exists':
    case 'unchanged':
      return `kept     ${outcome.path}`;
    case 'skipped':
      return `${pc.yellow('skipped ')} ${outcome.path}`;
  }
}

/** The CI workflow to write, if any: the matrix one with `--matrix`, which needs `--ci` (else exit 64). */
function ciChoice(options: InitOptions): { ci?: CiProvider; matrix?: boolean; workflow?: string } {
  if (options.matrix && !options.ci)
    throw new RalphError('usage', '--matrix needs --ci github', 'run ralph init --ci github --matrix');
  if (!options.ci) return {};
  return options.matrix
    ? { ci: options.ci, matrix: true, workflow: GITHUB_MATRIX_WORKFLOW }
    : { ci: options.ci, workflow: GITHUB_WORKFLOW };
}

/** "X is only ever added to", or "X and Y are": one file or two. */
function addedTo(files: readonly string[]): string {
  return `${files.join(' and ')} ${files.length === 1 ? 'is' : 'are'} only ever added to`;
}
