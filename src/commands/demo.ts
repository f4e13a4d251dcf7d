import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pc from 'picocolors';
import { packagePath, readTemplate } from '../templates.js';
import { runCommand } from './run.js';
import { gitOutput } from '../git/safe-git.js';
import { shownPath } from '../files/paths.js';

/**
 * `ralph demo`: the real loop, in a fresh temporary repository, against the bundled scripted agent,
 * which speaks as the chosen kind's client (its own stream), so each reader is shown end to end.
 * With --print-agent-path, only that agent's path: `ralph run --agent-bin "$(ralph demo
 * --print-agent-path)"` tries the loop on the user's own repository without a real agent.
 */
export async function demoCommand(options: { agent?: string; printAgentPath?: boolean } = {}): Promise<number> {
  if (options.printAgentPath) {
    process.stdout.write(`${packagePath('bin/scripted-agent.js')}\n`);
    return 0;
  }
  const repo = await mkdtemp(join(tmpdir(), 'ralph-demo-'));
  const git = (...args: string[]) => gitOutput(repo, args);
  await git('init', '-q');
  await git('config', 'user.name', 'Ralph Demo');
  await git('config', 'user.email', 'demo@ralph.invalid');
  await git('config', 'commit.gpgsign', 'false');
  await mkdir(join(repo, 'ralph'), { recursive: true });
  await writeFile(join(repo, 'ralph/prompt.md'), await readTemplate('prompt.md'));
  await writeFile(join(repo, 'ralph/tasks.json'), await readTemplate('demo/tasks.json'));
  await writeFile(join(repo, 'ralph/progress.txt'), await readTemplate('progress.txt'));
  await git('add', '-A');
  await git('commit', '-q', '-m', 'chore: demo task list');

  const agent = packagePath('bin/scripted-agent.js');
  process.stdout.write(
    `${pc.bold('ralph demo')}: a temporary repository with three tiny stories, and a scripted agent\n` +
      `that implements one story per iteration. This is the real loop.\n` +
      `  repository: ${repo}\n  agent:      ${shownPath(process.cwd(), agent)}\n\n`,
  );
  // The demo shows the defaults: no RALPH_ settings from the caller's environment apply.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('RALPH_')));
  const flags = { maxIterations: 10, maxStuck: 3, agentBin: agent, ...(options.agent ? { agent: options.agent } : {}) };
  const exitCode = await runCommand({ cwd: repo, flags, env });
  process.stdout.write(
    `\nLogs:  ${join(repo, 'ralph/logs')}/iteration-NNN.log\nCSV:   ${join(repo, 'ralph/logs/summary.csv')}\n` +
      `Try:   cd ${repo} && git log --oneline\n` +
      `Kept:  ${repo} stays for you to look at; rm -rf it when you are done\n`,
  );
  return exitCode;
}
