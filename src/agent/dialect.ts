import type { FatalAgentFailure } from '../domain/agent-failure.js';
import type { StartingKeys } from '../domain/starting-keys.js';
import type { AgentCommand, CommandRequest } from './agent-command.js';

import type { EventReader } from './event-reader.js';
import type { ClientSetup } from './client-setup.js';
import type { FailureHints } from './failure-words.js';
import type { AgentPreflight, AgentSetting } from './preflight-types.js';
import type { RootRule } from './root-rule.js';
import type { StopHook } from './stop-hook.js';
import type { ScriptedVoice } from './voice/voice.js';

/**
 * One agent client as ralph speaks to it: how its command line is built, how its stream is read,
 * how it says it failed, and what it offers beyond the loop. The loop, the judge, the gates and the
 * records never see which client runs; everything that differs between clients is here.
 */
export interface AgentDialect {
  /** The client's name as its users know it ("Claude Code"). */
  name: string;
  /** Its executable's usual name on PATH. */
  bin: string;
  /** How to install it. */
  install: string;
  /** The line its `--version` prints that tells the real client from a stand-in. */
  versionPattern: RegExp;
  /**
   * Its login and its API's endpoint, read before the first paid call, where the client lets ralph
   * tell without one; absent: nothing to check.
   */
  preflight?: (agent: AgentSetting) => AgentPreflight;
  /** Whether its stream reports what a call cost: without it `--max-cost` cannot work. */
  reportsCost: boolean;
  command(bin: string, request: CommandRequest): AgentCommand;
  /** A fresh reader of its machine-readable stream, for one iteration. */
  reader(): EventReader;
  /** A login, set-up or network failure in its own error output, with its fix. */
  classifyFailure(text: string): FatalAgentFailure | undefined;
  /** How to fix each fatal failure, in this client's terms. */
  hints: FailureHints;
  /** How `ralph init` installs it, logs it in and hands it its key in CI. */
  setup: ClientSetup;
  /** Its refusal to run as root, where it has one: said before any call. */
  rootRule?: RootRule;
  /** Its Stop hook, where it has one: `ralph init` registers ralph's, the dry run checks it. */
  stopHook?: StopHook;
  /**
   * Where the client keeps its own state (login, sessions, settings), relative to home: the box lets
   * it write these and nothing else of home.
   */
  stateFolders: readonly string[];
  /**
   * The files and folders in that state that make the client start programs or follow instructions
   * when you next start it yourself (hooks, MCP servers, plugins, commands), relative to home and
   * never written by the client in a run: the box holds each read-only where it is, and takes away
   * any the agent made where there was none.
   */
  programSettings: readonly string[];
  /** The same in a state file the client itself rewrites on every start: its keys, put back after each command. */
  programKeys?: readonly StartingKeys[];
  /** The hosts its calls go to, as its environment sets them: the box's allow-list starts from these. */
  apiHosts: (env: NodeJS.ProcessEnv) => string[];
  /** What only some clients offer; a kind without it is refused when asked for it. */
  features: { sandbox: boolean };
  /** How the scripted stand-in speaks as this client (`ralph demo --agent`, the end-to-end tests). */
  voice: ScriptedVoice;
}
