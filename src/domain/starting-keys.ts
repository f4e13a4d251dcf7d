/**
 * Keys of a client's JSON state file, relative to home, that start programs: each a path of keys,
 * `*` for every key of an object at that step (`['projects', '*', 'mcpServers']`). The dialect
 * names them; the box puts them back.
 */
export interface StartingKeys {
  file: string;
  keys: readonly (readonly string[])[];
}
