'use strict';
// The floor under `ralph run`'s way to its first agent (bench scenario 5): only what any run must
// do before an agent may touch the work tree — ask git which filter drivers to switch off, then
// what is uncommitted — and then start the agent as ralph does (`claude -p …`) and wait for it.
// No lock, no checks, no logs, no containment: what ralph takes above this is its own work.
const { spawn } = require('node:child_process');

/**
 * Runs a command to its end; any exit code but those given fails the floor, which would
 * otherwise measure less work than it claims.
 * @param {string} file @param {string[]} args @param {number[]} okCodes @returns {Promise<void>}
 */
function run(file, args, okCodes = [0]) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.once('error', reject);
    child.once('close', (code) =>
      okCodes.includes(code ?? -1) ? resolve() : reject(new Error(`${file} ${args[0]} exited ${code}`)),
    );
  });
}

(async () => {
  // Exit 1: no filter driver is configured, an answer like any other.
  await run('git', ['config', '--null', '--name-only', '--get-regexp', '^filter\\.'], [0, 1]);
  await run('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']);
  await run('claude', ['-p', 'Implement the next story.', '--dangerously-skip-permissions']);
})().catch((error) => {
  console.error(`first-agent-floor: ${error.message}`);
  process.exit(1);
});
