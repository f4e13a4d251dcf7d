import type { z as Z } from 'zod';
import { loadZod } from './lazy-zod.js';

const { z } = loadZod();

/** last-run.json as ralph writes it (see last-run.ts, its owner); unknown fields pass through. */
export const lastRunSchema = z.looseObject({
  reason: z.string(),
  exitCode: z.number(),
  detail: z.string().optional(),
  iterations: z.number(),
  maxIterations: z.number().optional(),
  endedAt: z.string().optional(),
  durationSeconds: z.number().optional(),
  stories: z.object({ complete: z.number(), total: z.number() }).optional(),
  // Each agent kind's part, when a --fallback-agent ran too.
  agents: z.record(z.string(), z.object({ iterations: z.number(), costUsd: z.number().optional() })).optional(),
});

/** What last-run.json holds, as `ralph status` reads it. */
export type LastRunFile = Z.infer<typeof lastRunSchema>;
