import type { z, ZodMiniType } from 'zod/mini';
import { gateOrderProblem } from '../gates/gate-order.js';
import { lazySchema, loadJsonSchemaWriter, type ZodApi } from '../files/lazy-zod.js';
import { RUN_OPTIONS, type RunOptionKey } from './run-options.js';
import { duration } from './value-kinds.js';

type Zod = ZodApi;

/** An optional key's schema with its description for the JSON Schema (editors show it). */
function optionalDescribed(zod: Zod) {
  return <T extends ZodMiniType>(schema: T, text: string) => zod.optional(schema).check(zod.describe(text));
}

/** The `agent` block: how the agent is started. */
function agentSchema(zod: Zod) {
  const said = optionalDescribed(zod);
  return zod
    .strictObject({
      kind: said(RUN_OPTIONS.agent.kind.schema, `The agent client (--agent; default "${RUN_OPTIONS.agent.default}").`),
      fallback: said(
        RUN_OPTIONS.fallbackAgent.kind.schema,
        "The agent kind that runs while the first one's usage limit runs (--fallback-agent).",
      ),
      bin: said(RUN_OPTIONS.agentBin.kind.schema, "The agent executable (default: the kind's own)."),
      model: said(RUN_OPTIONS.model.kind.schema, "The model, in the client's own naming (--model)."),
      args: said(zod.array(zod.string()), 'Extra arguments appended to every agent call, e.g. ["--model", "opus"].'),
      skipPermissions: said(
        zod.boolean(),
        "Run unattended, with the client's switch that skips every permission prompt (default true).",
      ),
      env: said(zod.record(zod.string(), zod.string()), 'Extra environment variables for the agent.'),
    })
    .check(zod.describe('How the agent is started.'));
}

/** The gates, in the order they run; an `after` must name an earlier gate. */
function gatesSchema(zod: Zod) {
  const said = optionalDescribed(zod);
  /** One quality gate: a shell command that must pass before a COMPLETE claim stands. */
  const gateSchema = zod.strictObject({
    name: zod
      .string({ error: 'expected a gate name' })
      .check(
        zod.minLength(1, { error: 'expected a gate name' }),
        zod.describe('build, lint, tests, typecheck, or any name of your own.'),
      ),
    command: zod
      .string({ error: 'expected a shell command' })
      .check(
        zod.minLength(1, { error: 'expected a shell command' }),
        zod.describe('Run with your shell in the repository root.'),
      ),
    after: said(zod.string(), 'A gate earlier in the list that must pass first; when it fails, this one is skipped.'),
    timeout: said(duration().schema, 'How long the gate may run (default 10m): 45s, 90m, 1h30m.'),
  });
  return zod.array(gateSchema).check(
    zod.superRefine((gates, context) => {
      const problem = gateOrderProblem(gates);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
    zod.describe(
      'Quality gates run when the agent claims COMPLETE (and, with gatesWhen "commit", after every commit).',
    ),
  );
}

/**
 * The `box` block: the OS box's mode and its extra paths. The file is the agent's to write, so a
 * key here may only narrow the box: `write` and a `mode` of "none" are refused when a run reads them.
 */
function boxSchema(zod: Zod) {
  const said = (key: 'box' | 'boxWrite' | 'boxReadOnly' | 'boxHide' | 'boxNetwork' | 'boxAllowHost') =>
    optionalDescribed(zod)(RUN_OPTIONS[key].kind.schema, `${capitalise(RUN_OPTIONS[key].description)}.`);
  return zod
    .strictObject({
      mode: said('box'),
      write: said('boxWrite'),
      readOnly: said('boxReadOnly'),
      hide: said('boxHide'),
      network: said('boxNetwork'),
      allowHosts: said('boxAllowHost'),
    })
    .check(zod.describe('The OS box around every agent and gate (docs/sandbox.md).'));
}

/** The run options whose config key is their own top-level name, in the order of RUN_OPTIONS. */
export const TOP_LEVEL_KEYS = (Object.keys(RUN_OPTIONS) as RunOptionKey[]).filter(
  (key) => !RUN_OPTIONS[key].configPath,
);

/**
 * ralph/config.json: one strict schema that validates the file and exports the JSON Schema for
 * editors. Built on first use, with zod loaded then (src/files/lazy-zod.ts).
 */
export const configSchema = lazySchema((zod) =>
  zod.strictObject({
    $schema: zod.optional(zod.string()),
    ...Object.fromEntries(
      TOP_LEVEL_KEYS.map((key) => {
        const def = RUN_OPTIONS[key];
        return [
          key,
          optionalDescribed(zod)(def.kind.schema, `${capitalise(def.description)} (${def.flag.split(' ')[0]}).`),
        ];
      }),
    ),
    agent: zod.optional(agentSchema(zod)),
    gates: zod.optional(gatesSchema(zod)),
    box: zod.optional(boxSchema(zod)),
  }),
);

export type ConfigFile = {
  agent?: z.output<ReturnType<typeof agentSchema>>;
  gates?: z.output<ReturnType<typeof gatesSchema>>;
  box?: z.output<ReturnType<typeof boxSchema>>;
} & Partial<Record<RunOptionKey, unknown>>;

/** The JSON Schema of ralph/config.json (templates/config.schema.json is this, written out). */
export function configJsonSchema(): unknown {
  return loadJsonSchemaWriter()(configSchema(), { io: 'input' });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
