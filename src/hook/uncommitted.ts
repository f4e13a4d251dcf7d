import { StringDecoder } from 'node:string_decoder';
import { LOOP_OWNED_PATHS } from '../files/paths.js';
import { neutralGitEnv } from '../git/neutral-config.js';
import { signalGroup } from '../process/process-group.js';
import { startInGroup } from '../process/start-in-group.js';

/** What is uncommitted: the first paths (for the message), and how many in all. */
export interface Uncommitted {
  paths: string[];
  total: number;
}

/**
 * Lists what is uncommitted in the work tree: modified, staged or deleted tracked files, and
 * untracked files git does not ignore; ralph's own files never count. Fails when git fails or
 * takes longer than `timeoutMs` (git is killed then).
 *
 * git's output is read as it comes (only the first `keep` paths are kept), so it is started as a
 * supervised child (src/process/start-in-group.ts), not captured whole.
 */
export function listUncommitted(root: string, options: { timeoutMs: number; keep: number }): Promise<Uncommitted> {
  return new Promise((resolve, reject) => {
    // -z: paths unquoted, one NUL-terminated entry each; `normal`: an untracked folder is one entry.
    const { child, ended } = startInGroup('git', ['status', '--porcelain=v1', '-z', '--untracked-files=normal'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      // ralph's git, though the agent's CLI started the hook: no fsmonitor or hook of the agent's runs from it.
      env: neutralGitEnv(process.env),
    });
    const reader = porcelainReader(options.keep);
    let stderr = '';
    const timer = setTimeout(() => {
      if (child?.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      reject(new Error(`git status did not finish within ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    child?.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
    child?.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 1000) stderr += chunk.toString();
    });
    void ended.then(({ exitCode, error }) => {
      clearTimeout(timer);
      if (error) reject(new Error(`cannot run git: ${error.message}`));
      else if (exitCode === 0) resolve(reader.finish());
      else reject(new Error(`git status failed (exit ${exitCode ?? null}): ${stderr.trim().split('\n')[0] ?? ''}`));
    });
  });
}

/** Reads `git status --porcelain=v1 -z` output chunk by chunk, keeping only the first `keep` paths. */
export function porcelainReader(keep: number) {
  const decoder = new StringDecoder('utf8');
  const paths: string[] = [];
  let total = 0;
  let pending = '';
  // A rename or copy entry is followed by its source path, which is not a change of its own.
  let skipSource = false;
  const take = (entry: string) => {
    if (skipSource) {
      skipSource = false;
      return;
    }
    if (entry.length < 4) return;
    const status = entry.slice(0, 2);
    const path = entry.slice(3);
    skipSource = status.includes('R') || status.includes('C');
    if (isLoopOwned(path)) return;
    total += 1;
    if (paths.length < keep) paths.push(path);
  };
  return {
    push(chunk: Buffer): void {
      const entries = (pending + decoder.write(chunk)).split('\0');
      pending = entries.pop() ?? '';
      for (const entry of entries) take(entry);
    },
    finish(): Uncommitted {
      const rest = pending + decoder.end();
      if (rest) take(rest);
      return { paths, total };
    },
  };
}

/** Whether a repository path is one of ralph's own files (inside its logs folder, or a temporary file beside one). */
export function isLoopOwned(path: string): boolean {
  return LOOP_OWNED_PATHS.some((owned) => {
    if (owned.endsWith('/')) return path.startsWith(owned) || path === owned.slice(0, -1);
    if (owned.endsWith('*')) return path.startsWith(owned.slice(0, -1)) && !path.includes('/', owned.length - 1);
    return path === owned;
  });
}
