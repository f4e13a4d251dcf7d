/** One floor of src/: its folders (and top-level modules), named relative to src/. */
export interface Floor {
  name: string;
  folders: readonly string[];
}

/** The floors of src/, lowest first (floors.js). */
export declare const FLOORS: readonly Floor[];
