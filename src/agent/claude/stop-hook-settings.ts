import { PACKAGE_NAME } from '../../package-info.js';
import type { Merged } from '../../files/merged.js';
import { indentOf, isObject, parseJson } from '../../files/json-text.js';

/** The command Claude Code runs when the agent wants to stop. */
const STOP_HOOK_COMMAND = 'ralph hook stop';

/** The hook as registered: a minute is far more than the checks take, and bounds a stuck git. */
export const STOP_HOOK = { type: 'command', command: STOP_HOOK_COMMAND, timeout: 60 } as const;

const ADDED = `Stop hook "${STOP_HOOK_COMMAND}"`;
const SNIPPET = JSON.stringify({ hooks: { Stop: [{ hooks: [STOP_HOOK] }] } });

/** The same hook through npx, which runs ralph without a global install. */
export const NPX_STOP_HOOK_COMMAND = `npx ${PACKAGE_NAME} hook stop`;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `ralph hook stop` however it is spelled: on PATH, by path, or through npx with this package's
 * name (optionally @version). Another package's name is not ralph, even if it says `hook stop`.
 */
const REGISTERED = new RegExp(
  `(?:(?:^|[\\s/])ralph(?:\\.c?js)?|^npx\\s+(?:--yes\\s+|-y\\s+)?${escaped(PACKAGE_NAME)}(?:@\\S+)?)\\s+hook\\s+stop\\s*$`,
);

/**
 * Adds ralph's Stop hook to the text of `.claude/settings.json`, keeping every other key and
 * hook; unchanged when it is there already. A file ralph cannot safely edit (not JSON, or
 * `hooks` of an unexpected shape) is left as it is, with a warning saying what to add by hand.
 */
export function mergeClaudeSettings(existing: string | undefined): Merged {
  if (existing === undefined || existing.trim() === '') {
    return { text: `${JSON.stringify({ hooks: { Stop: [{ hooks: [STOP_HOOK] }] } }, null, 2)}\n`, added: [ADDED] };
  }
  const parsed = parseJson(existing);
  if (!parsed.ok) return leftAlone(existing, `is not valid JSON (${parsed.error})`);
  const settings = parsed.value;
  if (!isObject(settings)) return leftAlone(existing, 'is not a JSON object');
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) return leftAlone(existing, 'has a "hooks" that is not an object');
  const stop = hooks.Stop ?? [];
  if (!Array.isArray(stop)) return leftAlone(existing, 'has a "hooks.Stop" that is not an array');
  if (stop.some(isRalphEntry)) return { text: existing, added: [] };
  // Spreading keeps every key where it was; `hooks` goes last only when it is new.
  const merged = { ...settings, hooks: { ...hooks, Stop: [...(stop as unknown[]), { hooks: [STOP_HOOK] }] } };
  return { text: `${JSON.stringify(merged, null, indentOf(existing))}\n`, added: [ADDED] };
}

function leftAlone(existing: string, problem: string): Merged {
  return {
    text: existing,
    added: [],
    warning: `.claude/settings.json ${problem}: left it as it is. To let ralph check each stop of the agent, add ${SNIPPET} to it yourself.`,
  };
}

/** Whether a `hooks.Stop[]` entry already runs ralph's hook. */
function isRalphEntry(entry: unknown): boolean {
  return ralphCommand(entry) !== undefined;
}

/** The command of ralph's hook in a `hooks.Stop[]` entry, however it is spelled. */
function ralphCommand(entry: unknown): string | undefined {
  if (!isObject(entry) || !Array.isArray(entry.hooks)) return undefined;
  for (const hook of entry.hooks as unknown[]) {
    const command = isObject(hook) && typeof hook.command === 'string' ? hook.command.trim() : undefined;
    if (command !== undefined && REGISTERED.test(command)) return command;
  }
  return undefined;
}

/** The command of ralph's Stop hook in the text of `.claude/settings.json`; undefined when it is not there. */
export function registeredStopHook(text: string | undefined): string | undefined {
  const parsed = text === undefined ? undefined : parseJson(text);
  const settings = parsed?.ok ? parsed.value : undefined;
  const stop = isObject(settings) && isObject(settings.hooks) ? settings.hooks.Stop : undefined;
  if (!Array.isArray(stop)) return undefined;
  return stop.map(ralphCommand).find((command) => command !== undefined);
}
