// What the built ralph can do: the benchmark runs against whichever build is there, so it asks
// `--help` instead of assuming (stream-json output and `ralph status` arrive in later builds).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT, RALPH_BIN } from './workspace.mjs';

/**
 * @typedef {object} RalphCapabilities
 * @property {string[]} textArgs    `ralph run` arguments for plain-text agent output
 * @property {string[] | undefined} streamJsonArgs  arguments for stream-json output; undefined when this build has none
 * @property {boolean} hasStatus
 * @property {string[]} resumeArgs  lifts the limit on runs in a row that complete no story (the bench's never do)
 */

/** Reads the build's help texts; throws a one-line message when there is no build. @returns {RalphCapabilities} */
export function detectRalph() {
  if (!existsSync(join(PACKAGE_ROOT, 'dist/cli/main.js'))) {
    throw new Error('ralph is not built (no dist/cli/main.js): run `npm install` or `npm run build` first');
  }
  const help = (/** @type {string[]} */ ...args) =>
    execFileSync(process.execPath, [RALPH_BIN, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const runHelp = help('run', '--help');
  const hasOutput = /--output\b/.test(runHelp);
  return {
    textArgs: hasOutput ? ['--output', 'text'] : [],
    // stream-json is the default once --output exists; name it when the help lists it.
    streamJsonArgs: hasOutput ? (runHelp.includes('stream-json') ? ['--output', 'stream-json'] : []) : undefined,
    hasStatus: /^\s+status\b/m.test(help('--help')),
    resumeArgs: /--max-resumes\b/.test(runHelp) ? ['--max-resumes', '1000000'] : [],
  };
}
