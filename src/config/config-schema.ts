import type { z } from 'zod';
import { gateOrderProblem } from '../gates/gate-order.js';
import { lazySchema, loadZod, type ZodApi } from '../files/lazy-zod.js';
import { RUN_OPTIONS, type RunOptionKey } from './run-options.js';
import { duration } from './value-kinds.js';

type Zod = ZodApi;

/** The `agent` block: how the agent is started. */
function agentSchema(zod: Zod) {
  return zod
    .strictObject({
      kind: RUN_OPTIONS.agent.kind.schema
        .optional()
        .describe(`The agent client (--agent; default "${RUN_OPTIONS.agent.default}").`),
      fallback: RUN_OPTIONS.fallbackAgent.kind.schema
        .optional()
        .describe("The agent kind that runs while the first one's usage limit runs (--fallback-agent)."),
      bin: RUN_OPTIONS.agentBin.kind.schema.optional().describe("The agent executable (default: the kind's own)."),
      model: RUN_OPTIONS.model.kind.schema.optional().describe("The model, in the client's own naming (--model)."),
      args: zod
        .array(zod.string())
        .optional()
        .describe('Extra arguments appended to every agent call, e.g. ["--model", "opus"].'),
      skipPermissions: zod
        .boolean()
        .optional()
        .describe("Run unattended, with the client's switch that skips every permission prompt (default true)."),
      env: zod.record(zod.string(), zod.string()).optional().describe('Extra environment variables for the agent.'),
    })
    .describe('How the agent is started.');
}

/** The gates, in the order they run; an `after` must name an earlier gate. */
function gatesSchema(zod: Zod) {
  /** One quality gate: a shell command that must pass before a COMPLETE claim stands. */
  const gateSchema = zod.strictObject({
    name: zod
      .string({ error: 'expected a gate name' })
      .min(1, { error: 'expected a gate name' })
      .describe('build, lint, tests, typecheck, or any name of your own.'),
    command: zod
      .string({ error: 'expected a shell command' })
      .min(1, { error: 'expected a shell command' })
      .describe('Run with your shell in the repository root.'),
    after: zod
      .string()
      .optional()
      .describe('A gate earlier in the list that must pass first; when it fails, this one is skipped.'),
    timeout: duration().schema.optional().describe('How long the gate may run (default 10m): 45s, 90m, 1h30m.'),
  });
  return zod
    .array(gateSchema)
    .superRefine((gates, context) => {
      const problem = gateOrderProblem(gates);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .describe('Quality gates run when the agent claims COMPLETE (and, with gatesWhen "commit", after every commit).');
}

/**
 * The `box` block: the OS box's mode and its extra paths. The file is the agent's to write, so a
 * key here may only narrow the box: `write` and a `mode` of "none" are refused when a run reads them.
 */
function boxSchema(zod: Zod) {
  const said = (key: 'box' | 'boxWrite' | 'boxReadOnly' | 'boxHide' | 'boxNetwork' | 'boxAllowHost') =>
    `${capitalise(RUN_OPTIONS[key].description)}.`;
  return zod
    .strictObject({
      mode: RUN_OPTIONS.box.kind.schema.optional().describe(said('box')),
      write: RUN_OPTIONS.boxWrite.kind.schema.optional().describe(said('boxWrite')),
      readOnly: RUN_OPTIONS.boxReadOnly.kind.schema.optional().describe(said('boxReadOnly')),
      hide: RUN_OPTIONS.boxHide.kind.schema.optional().describe(said('boxHide')),
      network: RUN_OPTIONS.boxNetwork.kind.schema.optional().describe(said('boxNetwork')),
      allowHosts: RUN_OPTIONS.boxAllowHost.kind.schema.optional().describe(said('boxAllowHost')),
    })
    .describe('The OS box around every agent and gate (docs/sandbox.md).');
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
    $schema: zod.string().optional(),
    ...Object.fromEntries(
      TOP_LEVEL_KEYS.map((key) => {
        const def = RUN_OPTIONS[key];
        return [
          key,
          def.kind.schema.optional().describe(`${capitalise(def.description)} (${def.flag.split(' ')[0]}).`),
        ];
      }),
    ),
    agent: agentSchema(zod).optional(),
    gates: gatesSchema(zod).optional(),
    box: boxSchema(zod).optional(),
  }),
);

export type ConfigFile = {
  agent?: z.output<ReturnType<typeof agentSchema>>;
  gates?: z.output<ReturnType<typeof gatesSchema>>;
  box?: z.output<ReturnType<typeof boxSchema>>;
} & Partial<Record<RunOptionKey, unknown>>;

/** The JSON Schema of ralph/config.json (templates/config.schema.json is this, written out). */
export function configJsonSchema(): unknown {
  return loadZod().z.toJSONSchema(configSchema(), { io: 'input' });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
