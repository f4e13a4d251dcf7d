import { createHash } from 'node:crypto';

/** An object or array being written: its members are written one per turn of the loop. */
interface Frame {
  node: object;
  /** The object's keys, sorted; undefined for an array. */
  keys: string[] | undefined;
  next: number;
  written: number;
}

/**
 * JSON with object keys sorted at every depth and arrays kept in order, so the same value always
 * reads the same whatever order its keys arrived in. Iterative, because JSON.parse accepts nesting
 * far deeper than the call stack; what JSON cannot hold reads as JSON.stringify has it
 * (undefined as null in arrays and dropped in objects, NaN as null), bigints as numbers, cycles as "[Circular]".
 * This runs for every tool call the agent makes: one frame per object, text appended as it goes.
 */
export function canonicalJson(value: unknown): string {
  let out = '';
  const frames: Frame[] = [];
  // The objects being written: a cycle is cut, a child shared by two members is written twice.
  const onPath = new Set<object>();
  const write = (member: unknown): void => {
    if (member === null || typeof member !== 'object') {
      out += scalarJson(member);
    } else if (onPath.has(member)) {
      out += '"[Circular]"';
    } else {
      onPath.add(member);
      const keys = Array.isArray(member) ? undefined : Object.keys(member).sort();
      out += keys ? '{' : '[';
      frames.push({ node: member, keys, next: 0, written: 0 });
    }
  };
  write(toJsonValue(value));
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const { node, keys } = frame;
    if (frame.next === (keys ?? (node as unknown[])).length) {
      out += keys ? '}' : ']';
      onPath.delete(node);
      frames.pop();
      continue;
    }
    const index = frame.next++;
    const key = keys?.[index];
    const member = toJsonValue(key === undefined ? (node as unknown[])[index] : (node as Record<string, unknown>)[key]);
    if (key !== undefined && !isWritten(member)) continue;
    if (frame.written++ > 0) out += ',';
    if (key !== undefined) out += `${JSON.stringify(key)}:`;
    write(member);
  }
  return out;
}

/** Longer call texts are hashed, so a signature never holds more than this in memory. */
const MAX_PLAIN_SIGNATURE = 256;

/**
 * A short stable key for a tool call, from its name and its input as written by `canonicalJson`
 * (which the caller keeps for the report): equal calls, equal signatures, whatever their key order.
 */
export function signatureOfCanonical(name: string, canonicalInput: string): string {
  // The quoted name cannot run into the input, so ("ab", "c") and ("a", "bc") stay apart.
  const call = `${JSON.stringify(name)}${canonicalInput}`;
  // Most calls are short: they are their own key, and hashing them would cost more than the rest of the line.
  // A hash starts with "#", a plain call with a quote: the two never meet.
  return call.length <= MAX_PLAIN_SIGNATURE ? call : `#${createHash('sha256').update(call).digest('hex').slice(0, 16)}`;
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
