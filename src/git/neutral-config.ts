/**
 * The repository's executable configuration, switched off for every git command ralph itself runs.
 *
 * The agent writes whatever it likes into `.git/` (and, sharing $HOME, into ~/.gitconfig): a
 * `core.fsmonitor` command, hooks, filter drivers. Those would run from ralph's own `git status`
 * or `git switch` — on the host, outside the agent's containment and timeout. Configuration given
 * through the environment (GIT_CONFIG_COUNT, git 2.31+) outranks every config file, reaches git's
 * own subprocesses (submodules) and needs no quoting of the key, so a filter driver with any name
 * can be switched off. The user's own environment is kept: it is the user's, not the agent's.
 *
 * This module loads nothing heavy: the Stop hook uses it on every stop of the agent.
 */

/** One configuration entry: key and value. */
export type ConfigEntry = readonly [key: string, value: string];

/**
 * Each setting of git that starts a program, as ralph's commands could reach it, turned off.
 * Not here because ralph never runs the commands that read them: `core.editor`, `sequence.editor`,
 * `diff.external`, `diff.<driver>.textconv`/`command`, `gpg.program` (no
 * commit, merge, diff or tag; an empty `diff.external` would even break a diff); network
 * settings (`core.sshCommand`, `core.gitProxy`, `remote.<name>.vcs`) are unreachable once
 * `protocol.allow` is `never`. `uploadpack.packObjectsHook` git reads from no repository file.
 * git 2.39 runs no hook named in configuration (`hook.<name>.command` came later: hooksPath
 * would not reach those).
 */
export const NEUTRAL_CONFIG: readonly ConfigEntry[] = [
  // A hook program or the built-in daemon, started by every command that reads the index.
  ['core.fsmonitor', 'false'],
  // Hooks (post-checkout, reference-transaction, post-index-change…) are looked for in a file, not a folder.
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.askPass', ''],
  // An empty value empties the list of helpers.
  ['credential.helper', ''],
  // No transport at all: ralph's git never fetches or pushes.
  ['protocol.allow', 'never'],
  // `reflog show` would run gpg.program for each commit.
  ['log.showSignature', 'false'],
  // No background gc or maintenance started by a command that wrote objects or refs.
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  // No repository found by its look alone: with .git made unreadable to git (a HEAD of garbage),
  // git would take a folder above it with HEAD, objects and refs, the agent's own config and all,
  // as a bare repository (git 2.38+; an older git ignores the key).
  ['safe.bareRepository', 'explicit'],
];

/** A filter driver's programs (`filter.<name>.clean/smudge/process`), switched off, and not required. */
export function neutralFilter(name: string): ConfigEntry[] {
  return [
    [`filter.${name}.clean`, ''],
    [`filter.${name}.smudge`, ''],
    [`filter.${name}.process`, ''],
    [`filter.${name}.required`, 'false'],
  ];
}

/**
 * A merge driver's program (`merge.<name>.driver`), which a three-way merge of any file whose
 * attributes name it would run, replaced by `false`: that file conflicts instead. An empty value
 * would make git fail the whole merge.
 */
export function neutralMergeDriver(name: string): ConfigEntry[] {
  return [[`merge.${name}.driver`, 'false']];
}

/**
 * The environment for one of ralph's git commands: `base` (ralph's own) with the neutral settings
 * (and `extra` ones) appended after any GIT_CONFIG_COUNT entries the user set, no prompt for a
 * password, and no optional lock (a `git status` does not write the index the agent's git uses).
 */
export function neutralGitEnv(base: NodeJS.ProcessEnv, extra: readonly ConfigEntry[] = []): NodeJS.ProcessEnv {
  // Replace refs are the agent's to write: ralph's git sees the commits as they are, not as replaced.
  const env: NodeJS.ProcessEnv = {
    ...base,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
  };
  const given = Number(base.GIT_CONFIG_COUNT ?? 0);
  let count = Number.isInteger(given) && given >= 0 && given < 10_000 ? given : 0;
  for (const [key, value] of [...NEUTRAL_CONFIG, ...extra]) {
    env[`GIT_CONFIG_KEY_${count}`] = key;
    env[`GIT_CONFIG_VALUE_${count}`] = value;
    count += 1;
  }
  env.GIT_CONFIG_COUNT = String(count);
  return env;
}
