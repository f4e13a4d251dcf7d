import type { z as Z } from 'zod/mini';
import { loadZod } from './lazy-zod.js';

const { z } = loadZod();
const { optional } = z;

/** last-run.json as ralph writes it (see last-run.ts, its owner); unknown fields pass through. */
export const lastRunSchema = z.looseObject({
  reason: z.string(),
  exitCode: z.number(),
  detail: optional(z.string()),
  iterations: z.number(),
  maxIterations: optional(z.number()),
  endedAt: optional(z.string()),
  durationSeconds: optional(z.number()),
  stories: optional(z.object({ complete: z.number(), total: z.number() })),
  // Each agent kind's part, when a --fallback-agent ran too.
  agents: optional(z.record(z.string(), z.object({ iterations: z.number(), costUsd: optional(z.number()) }))),
});

/** What last-run.json holds, as `ralph status` reads it. */
export type LastRunFile = Z.infer<typeof lastRunSchema>;
