import { createHash } from 'node:crypto';

/** Marks the end of an object or array on the path, so cycles are cut and shared children are not. */
class Leave {
  constructor(readonly node: object) {}
}
/** Written text, an object or array still to write (its `toJSON` already applied), or the end of one. */
type Step = string | { value: object } | Leave;

/**
 * JSON with object keys sorted at every depth and arrays kept in order, so the same value always
 * reads the same whatever order its keys arrived in. Iterative, because JSON.parse accepts nesting
 * far deeper than the call stack; what JSON cannot hold reads as JSON.stringify has it
 * (undefined as null in arrays and dropped in objects, NaN as null), bigints as numbers, cycles as "[Circular]".
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const onPath = new Set<object>();
  const steps: Step[] = [memberStep(toJsonValue(value))];
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if (typeof step === 'string') {
      out.push(step);
      continue;
    }
    if (step instanceof Leave) {
      onPath.delete(step.node);
      continue;
    }
    const current = step.value;
    if (onPath.has(current)) {
      out.push('"[Circular]"');
      continue;
    }
    onPath.add(current);
    steps.push(new Leave(current));
    // Pushed in reverse: the last step pushed is written first.
    if (Array.isArray(current)) {
      steps.push(']');
      for (let index = current.length - 1; index >= 0; index--) {
        steps.push(memberStep(toJsonValue(current[index])));
        if (index > 0) steps.push(',');
      }
      steps.push('[');
    } else {
      const record = current as Record<string, unknown>;
      const members: [string, unknown][] = [];
      for (const key of Object.keys(record).sort()) {
        const member = toJsonValue(record[key]);
        if (isWritten(member)) members.push([key, member]);
      }
      steps.push('}');
      for (let index = members.length - 1; index >= 0; index--) {
        const [key, member] = members[index]!;
        steps.push(memberStep(member), `${JSON.stringify(key)}:`);
        if (index > 0) steps.push(',');
      }
      steps.push('{');
    }
  }
  return out.join('');
}

/** Longer call texts are hashed, so a signature never holds more than this in memory. */
const MAX_PLAIN_SIGNATURE = 256;

/**
 * A short stable key for a tool call (its name and canonical input): equal calls, equal
 * signatures, whatever their key order.
 */
export function toolSignature(name: string, input: unknown): string {
  return signatureOfCanonical(name, canonicalJson(input));
}

/** The signature from an input already written by `canonicalJson`, to avoid writing it twice. */
export function signatureOfCanonical(name: string, canonicalInput: string): string {
  // The quoted name cannot run into the input, so ("ab", "c") and ("a", "bc") stay apart.
  const call = `${JSON.stringify(name)}${canonicalInput}`;
  // Most calls are short: they are their own key, and hashing them would cost more than the rest of the line.
  // A hash starts with "#", a plain call with a quote: the two never meet.
  return call.length <= MAX_PLAIN_SIGNATURE ? call : `#${createHash('sha256').update(call).digest('hex').slice(0, 16)}`;
}

/** Scalars are written at once; objects and arrays wait on the stack. */
function memberStep(value: unknown): Step {
  return value !== null && typeof value === 'object' ? { value } : scalarJson(value);
}

/** What JSON.stringify would look at: the result of `toJSON` (Dates) or the value itself. */
function toJsonValue(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: (key: string) => unknown }).toJSON('');
  }
  return value;
}

/** Whether an object member with this value is written at all (JSON drops undefined, functions, symbols). */
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function scalarJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    default:
      return 'null';
  }
}
