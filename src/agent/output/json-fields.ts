/** Defensive readers for one parsed JSON line of an agent's stream: whatever the client version, never a throw. */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** A field that should be an object, or an empty one. */
export const obj = (value: unknown): Json => (isObject(value) ? value : {});
