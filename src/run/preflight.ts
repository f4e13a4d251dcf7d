import { access, constants, mkdir } from 'node:fs/promises';
import { relative } from 'node:path';
import { findExecutable } from '../agent/find-executable.js';
import { isErrno, RalphError } from '../errors.js';
import { ralphPaths, type RalphPaths } from '../files/paths.js';
import { readPromptFile } from '../files/prompt-file.js';
import { decideAnswer, decideQuestion, readOptional } from '../files/signal-files.js';
import { parseTasks, type TaskList } from '../files/tasks.js';

/** What a run may start with once every check passed. */
export interface ReadyRun {
  paths: RalphPaths;
  promptPath: string;
  tasks: TaskList;
  /** Absent in sandbox mode: the agent runs inside the sandbox, not on the host. */
  agentPath?: string;
}

/**
 * Everything that must hold before the first agent call; each failure is a one-line
 * RalphError naming the fix. Nothing here calls the agent or changes a file but ralph/logs/.
 */
export async function preflight(options: { cwd: string; root: string; promptPath: string; agentBin?: string }): Promise<ReadyRun> {
  const paths = ralphPaths(options.root);
  const shown = (path: string) => relative(options.cwd, path) || path;

  const { promptPath } = options;
  await readPromptFile(promptPath, shown(promptPath), promptPath === paths.prompt ? 'run `ralph init` to create it, or pass --prompt FILE' : 'check the --prompt path');
  const tasks = await readTaskList(paths.tasks, shown(paths.tasks));
  await refusePendingHuman(paths, shown);

  const agentPath = options.agentBin === undefined ? undefined : await findExecutable(options.agentBin, options.cwd);
  if (options.agentBin !== undefined && !agentPath) {
    throw new RalphError(
      'setup',
      `agent executable '${options.agentBin}' not found${options.agentBin.includes('/') ? '' : ' on PATH'}`,
      'install Claude Code (npm install -g @anthropic-ai/claude-code) or pass --agent-bin PATH',
    );
  }
  await ensureWritableDir(paths.logs, shown(paths.logs));
  return { paths, promptPath, tasks, ...(agentPath ? { agentPath } : {}) };
}

async function readTaskList(path: string, shown: string): Promise<TaskList> {
  const text = await readOptional(path);
  if (text === undefined) throw new RalphError('setup', `${shown} not found`, 'run `ralph init` to create it');
  const parsed = parseTasks(text);
  if (!parsed.ok) throw new RalphError('setup', `${shown} is not a valid task list: ${parsed.error}`, 'fix the file and run again');
  return parsed.tasks;
}

/** A BLOCKED or an unanswered DECIDE waits for a human: no agent call until it is resolved. */
async function refusePendingHuman(paths: RalphPaths, shown: (path: string) => string): Promise<void> {
  const blocked = await readOptional(paths.blocked);
  if (blocked !== undefined) {
    const reason = blocked.split('\n').slice(1).join(' ').trim() || blocked.trim();
    throw new RalphError(
      'blocked',
      `the loop is blocked: ${reason}`,
      `resolve it, then delete ${shown(paths.blocked)} and run again`,
    );
  }
  const decide = await readOptional(paths.decide);
  if (decide !== undefined && !decideAnswer(decide)) {
    throw new RalphError(
      'decide',
      `a decision is pending: ${decideQuestion(decide)}`,
      `write your answer below the --- line in ${shown(paths.decide)} and run again`,
    );
  }
}

async function ensureWritableDir(dir: string, shown: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    const why = isErrno(error, 'EACCES') ? 'permission denied' : (error as Error).message;
    throw new RalphError('setup', `cannot write the log directory ${shown}: ${why}`, 'fix its permissions or free the path');
  }
}

