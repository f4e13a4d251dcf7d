import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_FILE_BYTES, readSmallRegularFile } from '../files/read-cap.js';
import { gitDirsFromFiles } from './head-file.js';

/**
 * Whether git's configuration can mention `word` at all, read from its files rather than asked of a
 * git: `false` only when every file git would read is a small regular file (or absent) and none
 * holds the word, in any case. So ralph starts no `git config` to list the filter drivers of a
 * repository that has none (two processes a run: bench/RESULTS.md, "The peers are Bun programs").
 *
 * Anything these files do not settle says `true`, and the caller asks git: configuration from the
 * environment (GIT_CONFIG_*), an `include` (its file is not read here), a file that is a FIFO, a
 * device, too large or unreadable, a repository whose git dirs the files do not settle. The test is
 * a word anywhere, not a parse: a section git reads as `filter` is spelled with those six letters,
 * however it is written (`[filter "x"]`, `[FILTER.x]`), so a file that lacks them defines none.
 * The system file is read where Debian and most Linux builds keep it (/etc/gitconfig); one kept
 * elsewhere by a build of git is the administrator's, and the agent cannot write it from its box.
 */
export async function configMayMention(
  root: string,
  word: string,
  { env = process.env, systemFile = SYSTEM_CONFIG }: { env?: NodeJS.ProcessEnv; systemFile?: string } = {},
): Promise<boolean> {
  const texts = await configTexts(root, env, systemFile);
  if (texts === undefined) return true;
  const pattern = new RegExp(word, 'i');
  return texts.some((text) => pattern.test(text));
}

/** Variables through which configuration reaches git without a file ralph reads, or from another place. */
const CONFIG_VARIABLES = /^GIT_(?:CONFIG(?:_COUNT|_PARAMETERS|_GLOBAL|_SYSTEM)?|DIR|COMMON_DIR)$/;

/** Where git's system configuration is, in Debian's build and most others on Linux. */
const SYSTEM_CONFIG = '/etc/gitconfig';

async function configTexts(root: string, env: NodeJS.ProcessEnv, systemFile: string): Promise<string[] | undefined> {
  if (Object.keys(env).some((name) => CONFIG_VARIABLES.test(name))) return undefined;
  const dirs = await gitDirsFromFiles(root);
  if (!dirs) return undefined;
  const home = env.HOME;
  const xdg = env.XDG_CONFIG_HOME || (home ? join(home, '.config') : undefined);
  const files = [
    // Read even where GIT_CONFIG_NOSYSTEM may keep git from it: a word too many only asks git.
    systemFile,
    ...(xdg ? [join(xdg, 'git', 'config')] : []),
    ...(home ? [join(home, '.gitconfig')] : []),
    join(dirs.commonDir, 'config'),
    join(dirs.gitDir, 'config.worktree'),
  ];
  const texts: string[] = [];
  for (const file of files) {
    const text = readConfigFile(file);
    if (text === undefined || /include/i.test(text)) return undefined;
    texts.push(text);
  }
  return texts;
}

/** A config file's text, '' when there is no such file, undefined when it cannot be read as a plain file. */
function readConfigFile(path: string): string | undefined {
  const text = readSmallRegularFile(path, CLIENT_FILE_BYTES)?.text;
  if (text !== undefined) return text;
  try {
    lstatSync(path);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? '' : undefined;
  }
}
