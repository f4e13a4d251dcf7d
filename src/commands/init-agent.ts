import { askAgent } from '../agent/ask-agent.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AGENT_KINDS, dialectOf, type AgentKind } from '../agent/dialects.js';
import type { AgentDialect } from '../agent/dialect.js';
import { installedClientVersion } from '../agent/client-setup.js';
import { RalphError } from '../errors.js';
import { readOwnFile } from '../files/own-file.js';
import type { InitAgent } from '../init/agent-setup.js';
import type { ItemOutcome } from '../init/apply-plan.js';
import { agentKindIn } from '../init/config-agent.js';
import { findExecutable } from '../process/find-executable.js';

/**
 * The agent client `ralph init` sets up: the kind --agent names, else the one the config names,
 * else the default; its executable here, and its words for init from its dialect. With --ci the
 * workflow pins the version installed here, so CI runs the agent the user tried.
 */
export async function agentToSetUp(
  root: string,
  cwd: string,
  named: AgentKind | undefined,
  ci: boolean,
): Promise<{ agent: InitAgent; dialect: AgentDialect; agentPath: string | undefined }> {
  const kind = named ?? configuredKind(await readOwnFile(join(root, 'ralph/config.json'))) ?? AGENT_KINDS[0];
  const dialect = dialectOf(kind);
  const agentPath = await findExecutable(dialect.bin, cwd);
  const version = ci
    ? ((await installedClientVersion(agentPath, dialect.setup)) ?? dialect.setup.defaultVersion)
    : dialect.setup.defaultVersion;
  return { agent: initAgent(kind, dialect, version), dialect, agentPath };
}

/** `--agent` names a kind ralph knows: checked before anything is written. */
export function checkAgentKind(name: string | undefined): AgentKind | undefined {
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
    ...(dialect.rootRule ? { rootAdvice: dialect.rootRule.advice(process.env) } : {}),
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
export async function loggedIn(dialect: AgentDialect, path: string | undefined): Promise<boolean> {
  if ((process.env[dialect.setup.key.variable] ?? '').trim() !== '') return true;
  const env = { ...process.env, HOME: process.env.HOME ?? homedir() };
  // No run, no box: the person runs init, and the program is the one on their PATH.
  const preflight = dialect.preflight?.({ env, ask: askAgent(path ?? dialect.bin, env, process.cwd()), version: '' });
  return (await preflight?.login())?.state === 'ok';
}

/**
 * What `--agent` left to say: a config of the user's that names another kind (only --force sets
 * it), and a Stop hook the kind does not have.
 */
export async function agentNotes(root: string, kind: AgentKind, outcomes: readonly ItemOutcome[]): Promise<string[]> {
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

/** ralph runs as root, the client would refuse to start so, and nothing in the environment lifts that. */
export function refusesRoot(dialect: AgentDialect): boolean {
  const rule = dialect.rootRule;
  return process.getuid?.() === 0 && rule !== undefined && rule.liftedBy(process.env) === undefined;
}
