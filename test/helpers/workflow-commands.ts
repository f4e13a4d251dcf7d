/**
 * Reads a step's output the way the GitHub Actions runner does, so tests assert what the runner
 * would obey rather than what text appears somewhere. Written from the runner's source
 * (github.com/actions/runner):
 * - src/Runner.Sdk/ProcessInvoker.cs reads stdout and stderr with StreamReader.ReadLine, which ends a
 *   line at `\n`, `\r` or `\r\n`. Both streams feed one command manager, but each batch's stderr
 *   lines go before its stdout lines: a stderr line may be handled before an earlier stdout
 *   `::stop-commands::`. Tests therefore read stderr on its own, with commands never stopped.
 * - src/Runner.Common/ActionCommand.cs, TryParseV2: trim leading whitespace; the line must start with
 *   `::`; `::name key=value,key=value::data`; the name must be a registered command
 *   (case-insensitive); data unescapes %0D %0A %25, property values also %3A %2C.
 *   TryParse (the legacy form): `##[name key=value;key=value]data` found ANYWHERE in the line;
 *   unescapes %3B %0D %0A %5D %25.
 * - src/Runner.Worker/ActionCommandManager.cs, TryProcessCommand: V2 first, then legacy.
 *   `stop-commands` registers its data as a token and ignores every command until one named after
 *   the token (in either form); an empty token never resumes. `echo` takes on/off.
 * - src/Runner.Worker/FileCommandManager.cs: $GITHUB_OUTPUT lines `name=value` (when `=` comes
 *   before any `<<`) or `name<<DELIMITER` … a line equal to DELIMITER; lines end at `\n` (Linux);
 *   a missing delimiter is an error. $GITHUB_STEP_SUMMARY over 128 KiB is rejected.
 */

/** The commands the runner registers (its command extensions, plus stop-commands). */
const REGISTERED = [
  'stop-commands',
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
];

/** A command as the runner parsed it. */
export interface ParsedCommand {
  name: string;
  properties: Record<string, string>;
  data: string;
  form: 'v2' | 'legacy';
}

/** A command the runner acted on, with the line it came from. */
export interface ObeyedCommand extends ParsedCommand {
  line: string;
}

/** Splits output into lines as StreamReader.ReadLine does: at `\r\n`, `\r` or `\n`. */
export function runnerLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  // A final terminator does not start another line.
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

const isRegistered = (name: string, registered: ReadonlySet<string>) => registered.has(name.toLowerCase());

/** ActionCommand.TryParseV2. */
export function parseV2(message: string, registered: ReadonlySet<string>): ParsedCommand | undefined {
  const trimmed = message.trimStart();
  if (!trimmed.startsWith('::')) return undefined;
  const end = trimmed.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = trimmed.slice(2, end);
  const space = info.indexOf(' ');
  const name = space < 0 ? info : info.slice(0, space);
  if (!isRegistered(name, registered)) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info
      .slice(space + 1)
      .trim()
      .split(',')
      .filter(Boolean)) {
      const [key, value] = splitPair(pair);
      if (key && value) properties[key] = unescape(value, PROPERTY_ESCAPES);
    }
  }
  return { name, properties, data: unescape(trimmed.slice(end + 2), DATA_ESCAPES), form: 'v2' };
}

/** ActionCommand.TryParse: the legacy `##[name props]data`, anywhere in the line. */
export function parseLegacy(message: string, registered: ReadonlySet<string>): ParsedCommand | undefined {
  const prefix = message.indexOf('##[');
  if (prefix < 0) return undefined;
  const bracket = message.indexOf(']', prefix);
  if (bracket < 0) return undefined;
  const info = message.slice(prefix + 3, bracket);
  const space = info.indexOf(' ');
  const name = space < 0 ? info : info.slice(0, space);
  if (!isRegistered(name, registered)) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info
      .slice(space + 1)
      .split(';')
      .filter(Boolean)) {
      const [key, value] = splitPair(pair);
      if (key && value) properties[key] = unescape(value, LEGACY_ESCAPES);
    }
  }
  return { name, properties, data: unescape(message.slice(bracket + 1), LEGACY_ESCAPES), form: 'legacy' };
}

/** `key=value` split at the first `=`; .NET's RemoveEmptyEntries drops an empty side. */
function splitPair(pair: string): [string, string] {
  const equals = pair.indexOf('=');
  return equals < 0 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)];
}

const DATA_ESCAPES: [string, string][] = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%25', '%'],
];
const PROPERTY_ESCAPES: [string, string][] = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%3A', ':'],
  ['%2C', ','],
  ['%25', '%'],
];
const LEGACY_ESCAPES: [string, string][] = [
  ['%3B', ';'],
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%5D', ']'],
  ['%25', '%'],
];

function unescape(text: string, mappings: [string, string][]): string {
  return mappings.reduce((value, [escaped, plain]) => value.split(escaped).join(plain), text);
}

/** The runner's command manager: feed it lines; it records what it obeyed. */
export class RunnerCommandManager {
  readonly obeyed: ObeyedCommand[] = [];
  echo = false;
  private readonly registered = new Set(REGISTERED);
  private stopToken: string | undefined;

  /** Whether commands are stopped (a `stop-commands` not yet resumed). */
  get stopped(): boolean {
    return this.stopToken !== undefined;
  }

  process(line: string): void {
    const command = parseV2(line, this.registered) ?? parseLegacy(line, this.registered);
    if (!command) return;
    const name = command.name.toLowerCase();
    if (this.stopToken !== undefined) {
      if (this.stopToken !== '' && name === this.stopToken.toLowerCase()) {
        this.registered.delete(this.stopToken.toLowerCase());
        this.stopToken = undefined;
        this.obeyed.push({ ...command, name: 'resume', line });
      }
      return;
    }
    if (name === 'stop-commands') {
      this.stopToken = command.data;
      this.registered.add(command.data.toLowerCase());
    } else if (name === 'echo') {
      this.echo = command.data.trim().toLowerCase() === 'on';
    }
    this.obeyed.push({ ...command, name, line });
  }
}

/** Runs a whole output through a fresh command manager. */
export function readAsRunner(output: string): RunnerCommandManager {
  const manager = new RunnerCommandManager();
  for (const line of runnerLines(output)) manager.process(line);
  return manager;
}

/**
 * The lines the runner shows outside any group: a `group` it obeys folds every line after it, up
 * to the `endgroup` it obeys (groups do not nest in the runner's log: a second group ends the first).
 */
export function ungroupedLines(output: string): string[] {
  const manager = new RunnerCommandManager();
  const shown: string[] = [];
  let grouped = false;
  for (const line of runnerLines(output)) {
    const before = manager.obeyed.length;
    manager.process(line);
    const obeyed = manager.obeyed.length > before ? manager.obeyed.at(-1)!.name : undefined;
    if (obeyed === 'group') grouped = true;
    else if (obeyed === 'endgroup') grouped = false;
    else if (!grouped) shown.push(line);
  }
  return shown;
}

/** $GITHUB_OUTPUT (or $GITHUB_ENV) as the runner reads it; throws where the runner would fail the step. */
export function readOutputFile(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line === '') continue;
    const equals = line.indexOf('=');
    const heredoc = line.indexOf('<<');
    if (equals >= 0 && (heredoc < 0 || equals < heredoc)) {
      values.set(line.slice(0, equals), line.slice(equals + 1));
    } else if (heredoc >= 0) {
      const [name, delimiter] = [line.slice(0, heredoc), line.slice(heredoc + 2)];
      if (!name || !delimiter) throw new Error(`invalid format '${line}': name and delimiter must not be empty`);
      const end = lines.indexOf(delimiter, index + 1);
      if (end < 0) throw new Error(`matching delimiter not found '${delimiter}'`);
      values.set(name, lines.slice(index + 1, end).join('\n'));
      index = end;
    } else {
      throw new Error(`invalid format '${line}'`);
    }
  }
  return values;
}

/** The largest $GITHUB_STEP_SUMMARY the runner uploads (FileCommandManager.cs, CreateStepSummaryCommand). */
export const STEP_SUMMARY_LIMIT_BYTES = 128 * 1024;
