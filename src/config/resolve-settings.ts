import { RalphError } from '../errors.js';
import type { GateSpec } from '../gates/types.js';
import type { ConfigFile } from './config-schema.js';
import {
  configPathOf,
  envName,
  RUN_OPTIONS,
  type OptionDef,
  type RunOptionKey,
  type RunSettings,
} from './run-options.js';
import { parseText } from './value-kinds.js';

/** A gate's time limit when its config gives none. */
const DEFAULT_GATE_TIMEOUT_MS = 10 * 60_000;

/** Where a resolved value came from, highest precedence first. */
export type Source = 'flag' | 'env' | 'config' | 'default';

/** How the agent is started, beyond its executable (config `agent` block only). */
export interface AgentSettings {
  args: string[];
  skipPermissions: boolean;
  env: Record<string, string>;
}

export interface ResolvedSettings {
  settings: RunSettings;
  agent: AgentSettings;
  /** The quality gates, from config.json only (a list has no flag or variable). */
  gates: GateSpec[];
  sources: Record<RunOptionKey | `agent.${keyof AgentSettings}` | 'gates', Source>;
}

/**
 * Resolves every run option through the four layers: flag > environment (RALPH_…) >
 * ralph/config.json > built-in default. Flags arrive already checked by the CLI; an
 * environment value that does not parse is a set-up error naming the variable.
 */
export function resolveSettings(
  flags: Partial<Record<RunOptionKey, unknown>>,
  env: NodeJS.ProcessEnv,
  config: ConfigFile,
): ResolvedSettings {
  const settings: Record<string, unknown> = {};
  const sources: Record<string, Source> = {};
  for (const key of Object.keys(RUN_OPTIONS) as RunOptionKey[]) {
    const def = RUN_OPTIONS[key] as OptionDef<unknown>;
    const variable = envName(def.flag);
    const fromConfig = valueAt(config, configPathOf(key));
    const refused = fromConfig === undefined ? undefined : def.refusedInConfig?.(fromConfig);
    if (refused !== undefined) throw widening(key, variable, refused);
    if (flags[key] !== undefined) {
      settings[key] = flags[key];
      sources[key] = 'flag';
    } else if (env[variable] !== undefined) {
      const parsed = parseText(def.kind as never, env[variable]);
      if (!parsed.ok)
        throw new RalphError('usage', `environment variable ${variable}: ${parsed.error}`, `fix or unset ${variable}`);
      settings[key] = parsed.value;
      sources[key] = 'env';
    } else if (fromConfig !== undefined) {
      settings[key] = fromConfig;
      sources[key] = 'config';
    } else {
      settings[key] = def.defaultIn ? def.defaultIn(env) : def.default;
      sources[key] = 'default';
    }
    if (def.addsFromConfig && sources[key] !== 'config' && Array.isArray(fromConfig))
      settings[key] = [...(settings[key] as unknown[]), ...(fromConfig as unknown[])];
  }
  const agent: AgentSettings = {
    args: config.agent?.args ?? [],
    skipPermissions: config.agent?.skipPermissions ?? true,
    env: config.agent?.env ?? {},
  };
  for (const key of ['args', 'skipPermissions', 'env'] as const) {
    sources[`agent.${key}`] = config.agent?.[key] === undefined ? 'default' : 'config';
  }
  const gates = gateSpecs(config);
  sources.gates = config.gates === undefined ? 'default' : 'config';
  return { settings: settings as RunSettings, agent, gates, sources: sources };
}

/** The quality gates of a config file, each with its time limit. */
export function gateSpecs(config: ConfigFile): GateSpec[] {
  return (config.gates ?? []).map(({ name, command, after, timeout }) => ({
    name,
    command,
    ...(after === undefined ? {} : { after }),
    timeoutMs: timeout ?? DEFAULT_GATE_TIMEOUT_MS,
  }));
}

/** The refusal of a config key that would reach outside the box: the agent writes ralph/config.json. */
function widening(key: RunOptionKey, variable: string, why: string): RalphError {
  const def = RUN_OPTIONS[key];
  return new RalphError(
    'usage',
    `ralph/config.json: ${configPathOf(key).join('.')} ${why}, and the agent can write that file`,
    `remove it, and give ${def.flag.split(' ')[0]} or ${variable} instead`,
  );
}

function valueAt(config: ConfigFile, path: readonly string[]): unknown {
  let value: unknown = config;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
