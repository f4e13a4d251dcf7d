import { InvalidArgumentError, Option, type Command } from 'commander';
import { envName, isSwitch, RUN_OPTIONS, type OptionDef, type RunOptionKey } from '../config/run-options.js';
import { parseRepeated, parseText } from '../config/value-kinds.js';

/** Declares every configurable run option on the command, with its default and variable in the help. */
export function addRunOptions(command: Command): Command {
  for (const def of Object.values(RUN_OPTIONS) as OptionDef<unknown>[]) {
    const option = runOption(def);
    command.addOption(option);
    // Commander defaults a --no-x option to true; a flag not given must fall through to env, config, default.
    if (option.negate) command.setOptionValueWithSource(option.attributeName(), undefined, 'default');
  }
  return command;
}

/** One run option as a command-line option: its help, and its value checked as the config checks it. */
export function runOption(def: OptionDef<unknown>): Option {
  const label = def.defaultLabel ?? String(def.default);
  const option = new Option(def.flag, `${def.description} (default: ${label}; env ${envName(def.flag)})`);
  if (def.repeatable) {
    option.argParser((raw: string, previous: unknown) => {
      const parsed = parseRepeated(def.kind, raw, previous);
      if (!parsed.ok) throw new InvalidArgumentError(`${parsed.error}.`);
      return parsed.value;
    });
  } else if (!isSwitch(def)) {
    option.argParser((raw: string) => {
      givenText.set(def.flag, raw);
      const parsed = parseText(def.kind, raw);
      if (!parsed.ok) throw new InvalidArgumentError(`${parsed.error}.`);
      return parsed.value;
    });
  }
  return option;
}

/** Each run option's value as typed, by flag: what a parallel run passes on to its loops. */
const givenText = new Map<string, string>();

/**
 * The run options given on the command line, as arguments again (`--max-cost 5 --no-branch`): what
 * `ralph run --parallel` passes on to each loop. The loop checks them as it checks its own.
 */
export function givenRunArgs(values: Record<string, unknown>): string[] {
  return Object.entries(RUN_OPTIONS).flatMap(([key, def]: [string, OptionDef<unknown>]) => {
    const value = values[key];
    // Each loop's task list is the supervisor's to give.
    if (value === undefined || key === 'tasks') return [];
    const long = def.flag.split(' ')[0]!;
    // A repeatable option (--notify) is given once per value.
    if (def.repeatable) return (value as readonly string[]).flatMap((each) => [long, each]);
    const text = givenText.get(def.flag);
    if (text !== undefined) return [long, text];
    // A switch (or an option whose value is optional, given bare): the flag alone says it.
    return value === false && !long.startsWith('--no-') ? [] : [long];
  });
}

/** The run options given on the command line (no defaults: those are resolved with env and config). */
export function givenRunFlags(values: Record<string, unknown>): Partial<Record<RunOptionKey, unknown>> {
  return Object.fromEntries(
    Object.keys(RUN_OPTIONS)
      .filter((key) => values[key] !== undefined)
      .map((key) => [key, values[key]]),
  );
}
