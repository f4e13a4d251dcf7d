// The floors of src/, lowest first: the one list that test/unit/architecture.test.ts checks the
// imports against and eslint.config.js turns into import boundaries. A module imports its own floor
// and the floors below, never one above; folders on one floor may import each other, but never
// round in a circle (the test finds those). docs/development.md says what each folder holds.

/** @type {readonly import('./floors.js').Floor[]} */
export const FLOORS = [
  { name: 'ground', folders: ['domain', 'errors.ts'] },
  // The loop's decisions: no file system, process, terminal or clock, only its ports.
  { name: 'core', folders: ['loop'] },
  // What every room stands on, and nothing of a room's.
  { name: 'host', folders: ['process', 'text', 'templates.ts', 'package-info.ts'] },
  { name: 'files', folders: ['files'] },
  // The programs ralph drives.
  { name: 'tools', folders: ['git', 'gates', 'agent'] },
  // The settings name the agent kinds and the gate order: they sit above both.
  { name: 'settings', folders: ['config'] },
  { name: 'rooms', folders: ['ui', 'box', 'lists', 'init', 'hook', 'status', 'report', 'answer', 'demo'] },
  { name: 'combined', folders: ['integrate', 'parallel', 'outlets'] },
  { name: 'run', folders: ['run-lifecycle'] },
  { name: 'commands', folders: ['commands'] },
  { name: 'cli', folders: ['cli'] },
];
