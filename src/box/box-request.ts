import type { BoxMode } from '../config/box-modes.js';
import type { StartingKeys } from '../domain/starting-keys.js';
import type { BoxExtras } from './box-policy.js';

/** What the run's box is made from: the mode, the loop's work tree, the client's state, the user's paths. */
export interface BoxRequest {
  mode: BoxMode;
  /** The loop's own work tree. */
  root: string;
  env: NodeJS.ProcessEnv;
  /** The clients' state folders, relative to home (every dialect the run may start). */
  clientState: readonly string[];
  /** What in that state starts programs (the dialects' `programSettings`): held read-only, or swept. */
  clientSettings?: readonly string[];
  /** The keys that start programs in state files the clients rewrite themselves: put back after each command. */
  clientKeys?: readonly StartingKeys[];
  /** As the user gave them: relative to the work tree, or `~/…`. */
  extras: BoxExtras;
  /** The run's Docker sandbox, when it has one: then that is the boundary. */
  sandboxed: boolean;
  /** The dry run: the box as it would be, with nothing made in the repository. */
  dryRun?: boolean;
  /** Open (the host's), or only the hosts on the list, through ralph's proxy. */
  network?: BoxNetwork;
  /** The clients' executables: where one lies in a shared temporary folder, its folders are shown read-only. */
  programs?: readonly string[];
}

/** The box's network: the host's, or the allow-list's hosts alone (`host`, `host:port`, `*.domain`). */
export type BoxNetwork =
  { mode: 'open' } | { mode: 'allow-list'; hosts: readonly string[]; onRefused: (target: string) => void };
