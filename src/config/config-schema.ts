import { z } from 'zod';
import { RUN_OPTIONS, type RunOptionKey } from './run-options.js';

/** The `agent` block: how the agent is started. */
const agentSchema = z
  .strictObject({
    bin: RUN_OPTIONS.agentBin.kind.schema.optional().describe('The agent executable (default "claude").'),
    args: z.array(z.string()).optional().describe('Extra arguments appended to every agent call, e.g. ["--model", "opus"].'),
    skipPermissions: z.boolean().optional().describe('Add --dangerously-skip-permissions (default true).'),
    env: z.record(z.string(), z.string()).optional().describe('Extra environment variables for the agent.'),
  })
  .describe('How the agent is started.');

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
});

export type ConfigFile = z.output<typeof configSchema> & {
  agent?: z.output<typeof agentSchema>;
} & Partial<Record<RunOptionKey, unknown>>;

/** The JSON Schema of ralph/config.json (templates/config.schema.json is this, written out). */
export function configJsonSchema(): unknown {
  return z.toJSONSchema(configSchema, { io: 'input' });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
