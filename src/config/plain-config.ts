/**
 * ralph/config.json checked by hand, so that `ralph run` reads the usual file without loading zod.
 * It accepts only what the schema (src/config/config-schema.ts) accepts and builds the same value,
 * keys in the schema's order; anything it is unsure of (an unknown key, a wrong value) is
 * undefined, and the caller asks the schema, whose error message is the one the user sees.
 * test/unit/config/plain-config.test.ts holds the two side by side.
 */
import {
  boolean,
  INVALID,
  nonEmpty,
  object,
  optional,
  recordOf,
  required,
  string,
  strings,
  unsureAsInvalid,
  listOf,
  type Field,
} from '../files/plain-checks.js';
import { gateOrderProblem } from '../gates/gate-order.js';
import { TOP_LEVEL_KEYS, type ConfigFile } from './config-schema.js';
import { RUN_OPTIONS } from './run-options.js';
import { duration } from './value-kinds.js';

/** An option's value as its kind keeps it (the kind's `plain`, which says undefined when unsure). */
const kind = (check: (value: unknown) => unknown) => optional(unsureAsInvalid(check));

const agent = object(
  {
    kind: kind(RUN_OPTIONS.agent.kind.plain),
    fallback: kind(RUN_OPTIONS.fallbackAgent.kind.plain),
    bin: kind(RUN_OPTIONS.agentBin.kind.plain),
    model: kind(RUN_OPTIONS.model.kind.plain),
    args: optional(strings()),
    skipPermissions: optional(boolean),
    env: optional(recordOf(string)),
  },
  'strict',
);

const box = object(
  {
    mode: kind(RUN_OPTIONS.box.kind.plain),
    write: kind(RUN_OPTIONS.boxWrite.kind.plain),
    readOnly: kind(RUN_OPTIONS.boxReadOnly.kind.plain),
    hide: kind(RUN_OPTIONS.boxHide.kind.plain),
    network: kind(RUN_OPTIONS.boxNetwork.kind.plain),
    allowHosts: kind(RUN_OPTIONS.boxAllowHost.kind.plain),
  },
  'strict',
);

const gate = object(
  { name: required(nonEmpty), command: required(nonEmpty), after: optional(string), timeout: kind(duration().plain) },
  'strict',
);

const gates: Field = (value) => {
  const checked = listOf(gate)(value);
  return checked !== INVALID && gateOrderProblem(checked as { name: string; after?: string }[]) === undefined
    ? checked
    : INVALID;
};

const config = object(
  {
    $schema: optional(string),
    ...Object.fromEntries(TOP_LEVEL_KEYS.map((key) => [key, kind(RUN_OPTIONS[key].kind.plain)])),
    agent: optional(agent),
    gates: optional(gates),
    box: optional(box),
  },
  'strict',
);

/** config.json's JSON as the schema reads it, when it surely accepts it; undefined otherwise. */
export function plainConfig(json: unknown): ConfigFile | undefined {
  const checked = config(json);
  return checked === INVALID ? undefined : (checked as ConfigFile);
}
