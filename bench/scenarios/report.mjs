// Scenario 7: `ralph report` over 1,000 iterations — the file stays under 1 MB and is written in
// under a second (issue #29). The summary.csv and task list are synthetic: only their size matters.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from '../lib/measure.mjs';
import { inFreshRepo } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { summarize } from '../lib/stats.mjs';
import { AGENTS, RALPH_BIN } from '../lib/workspace.mjs';

const ITERATIONS = 1000;
const SIZE_TARGET_BYTES = 1024 * 1024;
const TIME_TARGET_MS = 1000;

const HEADER =
  'iteration,mode,duration_seconds,commit_hash,stories_complete,stories_total,stuck_count,timestamp,outcome,agent_exit_code,cost_usd,input_tokens,output_tokens,num_turns,tool_calls';

/** @param {string} dir */
function writeHistory(dir) {
  mkdirSync(join(dir, 'ralph/logs'), { recursive: true });
  const stories = Array.from({ length: 50 }, (_, i) => ({
    id: `US-${i + 1}`,
    title: `Story ${i + 1}`,
    priority: i + 1,
    passes: i < 40,
  }));
  writeFileSync(join(dir, 'ralph/tasks.json'), JSON.stringify({ project: 'bench', stories }));
  const rows = Array.from({ length: ITERATIONS }, (_, i) => {
    const complete = Math.min(40, Math.floor(i / 25));
    const mode = ['implement', 'review', 'review-fix'][i % 3];
    const outcome = i % 17 === 0 ? 'agent_error' : 'ok';
    return `${i + 1},${mode},${60 + (i % 90)},${i % 2 ? 'a1b2c3d4e5' : ''},${complete},50,${i % 2},2026-01-01T00:00:00Z,${outcome},0,0.${String(i % 100).padStart(2, '0')},1200,340,7,12`;
  });
  writeFileSync(join(dir, 'ralph/logs/summary.csv'), `${HEADER}\n${rows.join('\n')}\n`);
}

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function reportScale(ctx) {
  const samples = ctx.quick ? 1 : ctx.runs;
  const env = ctx.ws.env(ctx.ws.agentBin(AGENTS.instantCommit));
  ctx.progress(`report: ${ITERATIONS} iterations, ${samples} samples`);
  return inFreshRepo(ctx, async (dir) => {
    writeHistory(dir);
    const options = { cwd: dir, env, scratch: ctx.ws.scratch, okCodes: [0] };
    /** @type {number[]} */
    const times = [];
    for (let i = 0; i < samples; i++)
      times.push((await measure(process.execPath, [RALPH_BIN, 'report'], options)).wallMs);
    const time = summarize(times);
    const bytes = statSync(join(dir, 'ralph/logs/report.html')).size;
    const scenario = '7 report';
    return {
      rows: [
        {
          scenario,
          metric: `\`ralph report\`, ${ITERATIONS} iterations (ms)`,
          ralph: orReason(time, NOT_AVAILABLE),
          peer: '-',
          peerValue: '-',
          ratio: '-',
          digits: 1,
        },
        {
          scenario,
          metric: 'report.html size (KiB)',
          ralph: (bytes / 1024).toFixed(1),
          peer: '-',
          peerValue: '-',
          ratio: '-',
          digits: 1,
        },
      ],
      targets: [
        {
          goal: `report for ${ITERATIONS} iterations < 1 MB`,
          measured: `${(bytes / 1024).toFixed(1)} KiB`,
          pass: bytes < SIZE_TARGET_BYTES,
        },
        {
          goal: `report for ${ITERATIONS} iterations written in < ${TIME_TARGET_MS} ms (median, whole process)`,
          measured: time ? `${time.median.toFixed(1)} ms` : NOT_AVAILABLE,
          pass: time ? time.median < TIME_TARGET_MS : undefined,
        },
      ],
    };
  });
}
