import { z } from 'zod';
import { gateOrderProblem } from '../gates/gate-order.js';
import { RUN_OPTIONS, type RunOptionKey } from './run-options.js';
import { duration } from './value-kinds.js';

/** The `agent` block: how the agent is started. */
const agentSchema = z
  .strictObject({
    kind: RUN_OPTIONS.agent.kind.schema
      .optional()
      .describe(`The agent client (--agent; default "${RUN_OPTIONS.agent.default}").`),
    fallback: RUN_OPTIONS.fallbackAgent.kind.schema
      .optional()
      .describe("The agent kind that runs while the first one's usage limit runs (--fallback-agent)."),
    bin: RUN_OPTIONS.agentBin.kind.schema.optional().describe("The agent executable (default: the kind's own)."),
    model: RUN_OPTIONS.model.kind.schema.optional().describe("The model, in the client's own naming (--model)."),
    args: z
      .array(z.string())
      .optional()
      .describe('Extra arguments appended to every agent call, e.g. ["--model", "opus"].'),
    skipPermissions: z
      .boolean()
      .optional()
      .describe("Run unattended, with the client's switch that skips every permission prompt (default true)."),
    env: z.record(z.string(), z.string()).optional().describe('Extra environment variables for the agent.'),
  })
  .describe('How the agent is started.');

/** One quality gate: a shell command that must pass before a COMPLETE claim stands. */
const gateSchema = z.strictObject({
  name: z
    .string({ error: 'expected a gate name' })
    .min(1, { error: 'expected a gate name' })
    .describe('build, lint, tests, typecheck, or any name of your own.'),
  command: z
    .string({ error: 'expected a shell command' })
    .min(1, { error: 'expected a shell command' })
    .describe('Run with your shell in the repository root.'),
  after: z
    .string()
    .optional()
    .describe('A gate earlier in the list that must pass first; when it fails, this one is skipped.'),
  timeout: duration().schema.optional().describe('How long the gate may run (default 10m): 45s, 90m, 1h30m.'),
});

/** The gates, in the order they run; an `after` must name an earlier gate. */
const gatesSchema = z
  .array(gateSchema)
  .superRefine((gates, context) => {
    const problem = gateOrderProblem(gates);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .describe('Quality gates run when the agent claims COMPLETE (and, with gatesWhen "commit", after every commit).');

/** The run options whose config key is their own top-level name. */
const topLevelKeys = (Object.keys(RUN_OPTIONS) as RunOptionKey[]).filter((key) => !RUN_OPTIONS[key].configPath);

/** ralph/config.json: one strict schema that validates the file and exports the JSON Schema for editors. */
export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  ...Object.fromEntries(
    topLevelKeys.map((key) => {
      const def = RUN_OPTIONS[key];
      return [key, def.kind.schema.optional().describe(`${capitalise(def.description)} (${def.flag.split(' ')[0]}).`)];
    }),
  ),
  agent: agentSchema.optional(),
  gates: gatesSchema.optional(),
});

export type ConfigFile = {
  agent?: z.output<typeof agentSchema>;
  gates?: z.output<typeof gatesSchema>;
} & Partial<Record<RunOptionKey, unknown>>;

/** The JSON Schema of ralph/config.json (templates/config.schema.json is this, written out). */
export function configJsonSchema(): unknown {
  return z.toJSONSchema(configSchema, { io: 'input' });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
