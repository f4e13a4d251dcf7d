import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { findExecutable } from '../process/find-executable.js';
import { detectGates, type DetectedGate } from '../gates/detect-gates.js';
import { ralphPaths } from '../files/paths.js';
import { acceptAsLeftBehind } from '../files/run-state.js';
import { findRepoRoot } from '../git/repository.js';
import { applyPlan, type ItemOutcome } from '../init/apply-plan.js';
import { GITHUB_WORKFLOW, type CiProvider } from '../init/ci-providers.js';
import { legacyPromptNotes, readRalphSh } from '../init/import-ralph-sh.js';
import { planInit } from '../init/init-plan.js';
import { nextSteps, type Whereabouts } from '../init/next-steps.js';
import { checkInstallSpec, defaultInstallSpec } from '../init/install-spec.js';
import { vendorRunningRalph } from '../init/vendor.js';
import { updateInstallStep } from '../init/workflow-install.js';
import { AGENT_KINDS, dialectOf, type AgentKind } from '../agent/dialects.js';
import type { AgentDialect } from '../agent/dialect.js';
import { installedClientVersion } from '../agent/client-setup.js';
import type { InitAgent } from '../init/agent-setup.js';
import { agentKindIn } from '../init/config-agent.js';
import { readOwnFile } from '../files/own-file.js';
import { RalphError } from '../errors.js';
import { pathExists } from '../files/missing-file.js';
import { resetPaths } from '../init/reset-files.js';
import { stepsDone } from '../init/steps-done.js';

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
  /** The agent kind to set up and write to the config (`--agent codex`); else the config's, else the default. */
  agent?: string;
  /** What the workflow installs instead of this package at this version (a git URL, a tarball, a path). */
  install?: string;
  /** With --ci: pack this ralph into ralph/vendor/ and have the workflow install that file. */
  vendor?: boolean;
  stdout?: NodeJS.WritableStream;
}

/** `ralph init`: scaffolds ralph/ at the repository root and says what to do next. */
export async function initCommand(options: InitOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  // Checked first: a bad flag writes nothing.
  const installSpec = checkInstallSpec(options.install, options.ci, options.vendor ?? false);
  const named = checkAgentKind(options.agent);
  const reset = resetPaths(options.reset ?? []);
  const root = await findRepoRoot(options.cwd);
  await requireExisting(root, reset);
  const from =
    options.from === undefined ? undefined : await readRalphSh(resolve(options.cwd, options.from), options.cwd);
  const gates = await detectGates(root);
  const kind = named ?? configuredKind(await readOwnFile(join(root, 'ralph/config.json'))) ?? AGENT_KINDS[0];
  const dialect = dialectOf(kind);
  const agentPath = await findExecutable(dialect.bin, options.cwd);
  // Only for the workflow: CI runs the agent the user tried here.
  const version = options.ci
    ? ((await installedClientVersion(agentPath, dialect.setup)) ?? dialect.setup.defaultVersion)
    : dialect.setup.defaultVersion;
  const agent = initAgent(kind, dialect, version);
  const packed = options.vendor ? await vendorRunningRalph(root) : undefined;
  const vendored = packed?.path;
  const install = vendored === undefined ? installSpec : `./${vendored}`;
  const outcomes = await applyPlan(
    root,
    planInit({
      ci: options.ci,
      gates,
      ...(from ? { from } : {}),
      ...(install === undefined ? {} : { install }),
      agent,
      writeKind: named !== undefined,
    }),
    { force: options.force ?? false, reset },
  );
  // The user named what CI installs: an existing workflow's install line changes, nothing else of it.
  const workflow = outcomes.findIndex((outcome) => outcome.path === GITHUB_WORKFLOW && outcome.result === 'exists');
  if (install !== undefined && workflow >= 0) outcomes[workflow] = await updateInstallStep(root, install);
  if (packed) outcomes.push({ path: packed.path, result: packed.existed ? 'replaced' : 'created' });
  const written = outcomes
    .filter((outcome) => ['created', 'replaced', 'updated', 'reset'].includes(outcome.result))
    .map((outcome) => outcome.path);
  await acceptAsLeftBehind(root, ralphPaths(root).state, written);
  const where: Whereabouts = {
    agent,
    agentFound: agentPath !== undefined,
    root: process.getuid?.() === 0 && dialect.setup.root !== undefined && !dialect.setup.root.lifted(process.env),
    imported: from !== undefined,
    alsoWritten: [...(options.ci ? [GITHUB_WORKFLOW] : []), ...(vendored ? [vendored] : [])],
    loggedIn: await loggedIn(dialect, agentPath),
    ...(await stepsDone(root, agent.stopHook ? [agent.stopHook.path] : [])),
  };
  const notes = [
    ...(from
      ? [
          '',
          `Imported from ${from.shown} (nothing there was changed):`,
          ...legacyPromptNotes(from).map((note) => `  ${note}`),
        ]
      : []),
    ...(options.ci && install === undefined ? ['', ...installNote()] : []),
    ...(named === undefined ? [] : await agentNotes(root, named, outcomes)),
  ];
  stdout.write(renderInit(root, outcomes, gates, where, notes));
  return 0;
}

/** `--agent` names a kind ralph knows: checked before anything is written. */
function checkAgentKind(name: string | undefined): AgentKind | undefined {
  if (name === undefined) return undefined;
  const kind = AGENT_KINDS.find((known) => known === name.trim());
  if (kind !== undefined) return kind;
  throw new RalphError(
    'usage',
    `--agent ${name}: no such agent kind`,
    `name one of ${AGENT_KINDS.join(', ')} (docs/agents.md)`,
  );
}

/** The kind an existing config names, so a second init (`--ci github`) sets up the same client. */
function configuredKind(text: string | undefined): AgentKind | undefined {
  const named = agentKindIn(text);
  return AGENT_KINDS.find((known) => known === named);
}

/** The client as init sets it up, from its dialect. */
export function initAgent(kind: AgentKind, dialect: AgentDialect, version: string): InitAgent {
  const { setup, stopHook } = dialect;
  return {
    kind,
    name: dialect.name,
    install: dialect.install,
    login: setup.login,
    ...(setup.root ? { rootAdvice: setup.root.advice } : {}),
    reportsCost: dialect.reportsCost,
    ci: {
      package: setup.package,
      version,
      node: setup.node,
      keyVariable: setup.key.variable,
      secret: setup.key.secret,
    },
    ...(stopHook ? { stopHook: { path: stopHook.settingsPath, merge: stopHook.merge } } : {}),
  };
}

/**
 * The login step is done when the client's key variable is set, or its own preflight reads a login
 * without a paid call (a credential file, a settings file, its status command).
 */
async function loggedIn(dialect: AgentDialect, path: string | undefined): Promise<boolean> {
  if ((process.env[dialect.setup.key.variable] ?? '').trim() !== '') return true;
  const preflight = dialect.preflight?.({
    path: path ?? dialect.bin,
    env: { ...process.env, HOME: process.env.HOME ?? homedir() },
    version: '',
  });
  return (await preflight?.login())?.state === 'ok';
}

/**
 * What `--agent` left to say: a config of the user's that names another kind (only --force sets
 * it), and a Stop hook the kind does not have.
 */
async function agentNotes(root: string, kind: AgentKind, outcomes: readonly ItemOutcome[]): Promise<string[]> {
  const notes: string[] = [];
  const config = outcomes.find((outcome) => outcome.path === 'ralph/config.json');
  if (config?.result === 'exists') {
    const named = agentKindIn(await readOwnFile(join(root, 'ralph/config.json'))) ?? AGENT_KINDS[0];
    if (named !== kind)
      notes.push(
        `ralph/config.json is yours and runs ${named}: ralph init --agent ${kind} --force sets its agent.kind (and nothing else).`,
      );
  }
  if (dialectOf(kind).stopHook === undefined) {
    const having = AGENT_KINDS.filter((other) => dialectOf(other).stopHook !== undefined).map(
      (other) => dialectOf(other).name,
    );
    notes.push(
      `The Stop hook (ralph hook stop) is ${having.join(' and ')}'s alone: none is set up for ${dialectOf(kind).name}.`,
    );
  }
  return notes.length === 0 ? [] : ['', ...notes];
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

/**
 * The workflow installs this ralph from npm: said, since ralph cannot look there (no network), and
 * a build that is not published (a fork, a checkout) must name where it comes from instead.
 */
function installNote(): string[] {
  return [
    `The workflow installs ${defaultInstallSpec()} from npm. If this ralph is not published there (a fork, a`,
    '  build of your own), name where it comes from: ralph init --ci github --install <git URL or tarball>,',
    '  or pack this one into the repository: ralph init --ci github --vendor',
  ];
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
            ` ${['.gitignore', ...(where.agent.stopHook ? [where.agent.stopHook.path] : [])].join(' and ')} are only ever added to)`,
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
