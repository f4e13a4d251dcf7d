import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { findExecutable } from '../process/find-executable.js';
import { RalphError } from '../errors.js';
import { refusalOf, type Check } from './check.js';
import type { AgentDialect } from '../agent/dialect.js';
import { dialectOf, type AgentKind } from '../agent/dialects.js';

/** What the agent checks need to know. */
export interface AgentCheckOptions {
  cwd: string;
  /** The `--agent` kind: how its client is installed, what it lets ralph check. */
  agentKind: AgentKind;
  /** The agent executable as configured; absent in sandbox mode (the agent runs inside the sandbox). */
  agentBin?: string;
  /** Whether the agent is started with --dangerously-skip-permissions. */
  skipPermissions: boolean;
  /** The environment the agent is started with (ralph's, plus config `agent.env`). */
  agentEnv: NodeJS.ProcessEnv;
  /** ralph's user id (undefined where there is none, as on Windows). */
  uid: number | undefined;
  /** False when every story is already complete: a missing agent is then only a warning. */
  needed: boolean;
}

/**
 * The agent's checks: its executable resolves, and the client will not refuse to start as root.
 * Neither spends a call.
 */
export async function checkAgent(options: AgentCheckOptions): Promise<{ checks: Check[]; path?: string }> {
  const { agentBin, needed } = options;
  if (agentBin === undefined)
    return { checks: [{ name: 'agent', status: 'ok', detail: 'runs inside the Docker sandbox' }] };
  const notNeeded = 'not needed now: every story is complete (needed only if the quality gates fail)';
  const path = await findExecutable(agentBin, options.cwd, options.agentEnv.PATH);
  const checks: Check[] = [];
  if (path) checks.push({ name: 'agent', status: 'ok', detail: path });
  else {
    const error = await agentNotFound(agentBin, options.cwd, dialectOf(options.agentKind));
    checks.push(
      needed
        ? { name: 'agent', status: 'failure', detail: error.message, error }
        : { name: 'agent', status: 'warning', detail: `${error.message}; ${notNeeded}` },
    );
  }
  const root = rootRefusal(options);
  if (root === undefined) checks.push({ name: 'root', status: 'ok', detail: rootOk(options) });
  else
    checks.push(
      needed
        ? { name: 'root', status: 'failure', detail: root.message, error: root }
        : { name: 'root', status: 'warning', detail: `${root.message}; ${notNeeded}` },
    );
  return { checks, ...(path ? { path } : {}) };
}

/** The agent's path for a run that turned out to need it after all: its failed checks are thrown, all at once. */
export async function requireAgent(options: Omit<AgentCheckOptions, 'needed'>): Promise<string | undefined> {
  const { checks, path } = await checkAgent({ ...options, needed: true });
  const refusal = refusalOf(checks);
  if (refusal) throw refusal;
  return path;
}

/** Why the agent could not be found: nowhere, or a path that is there but no program. */
async function agentNotFound(agentBin: string, cwd: string, dialect: AgentDialect): Promise<RalphError> {
  const install = `install ${dialect.name} (${dialect.install}) or pass --agent-bin PATH`;
  if (!agentBin.includes('/'))
    return new RalphError('setup', `agent executable '${agentBin}' not found on PATH`, install);
  const found = await stat(resolve(cwd, agentBin)).catch(() => undefined);
  if (found?.isDirectory())
    return new RalphError('setup', `agent executable '${agentBin}' is a folder`, 'pass --agent-bin the program in it');
  if (found)
    return new RalphError(
      'setup',
      `agent executable '${agentBin}' is not executable`,
      `make it so (chmod +x ${agentBin}), or pass --agent-bin another program`,
    );
  return new RalphError('setup', `agent executable '${agentBin}' not found`, install);
}

/**
 * The refusal the client would give as root, said before any call — with the same fix; its rule is
 * the client's own (its dialect's). A client without one, or not started by its own executable
 * with its permission switch, is not judged.
 */
function rootRefusal({
  agentBin,
  skipPermissions,
  agentEnv,
  uid,
  agentKind,
}: AgentCheckOptions): RalphError | undefined {
  const rule = dialectOf(agentKind).rootRule;
  if (agentBin === undefined || uid !== 0 || !rule?.applies(agentBin, skipPermissions)) return undefined;
  if (rule.liftedBy(agentEnv) !== undefined) return undefined;
  const { message, hint } = rule.refusal(agentEnv);
  return new RalphError('setup', message, hint);
}

function rootOk({ agentBin = '', skipPermissions, uid, agentEnv, agentKind }: AgentCheckOptions): string {
  if (uid !== 0) return 'not running as root';
  const dialect = dialectOf(agentKind);
  const rule = dialect.rootRule;
  if (rule === undefined) return `root: ${dialect.name} does not refuse it`;
  if (!rule.applies(agentBin, skipPermissions)) return rule.notApplying;
  return rule.liftedBy(agentEnv) ?? 'root';
}
