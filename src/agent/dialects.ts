import { amp } from './amp/dialect.js';
import { claude } from './claude/dialect.js';
import { codex } from './codex/dialect.js';
import type { AgentDialect } from './dialect.js';
import type { StopHook } from './stop-hook.js';
import { gemini } from './gemini/dialect.js';
import { opencode } from './opencode/dialect.js';
import type { ScriptedAnswer, ScriptedVoice } from './voice/voice.js';

/** Every agent ralph speaks to, by its `--agent` name. A sixth is one folder and one row here. */
const DIALECTS = { claude, codex, gemini, opencode, amp } satisfies Record<string, AgentDialect>;

export type AgentKind = keyof typeof DIALECTS;

/** The `--agent` names, the default first. */
export const AGENT_KINDS = Object.keys(DIALECTS) as [AgentKind, ...AgentKind[]];

export function dialectOf(kind: AgentKind): AgentDialect {
  return DIALECTS[kind];
}

/** The client whose Stop hook `ralph hook stop` answers: the kind that has one. */
export function stopHookOf(): StopHook {
  const hook = AGENT_KINDS.map(dialectOf).find((dialect) => dialect.stopHook !== undefined)?.stopHook;
  if (hook === undefined) throw new Error('no agent kind has a Stop hook');
  return hook;
}

/** The stand-in's answer to a question one of the clients answers without a call, if the argv is one. */
export function scriptedAnswer(argv: readonly string[], env: NodeJS.ProcessEnv): ScriptedAnswer | undefined {
  return AGENT_KINDS.map((kind) => dialectOf(kind).voice.answer?.(argv, env)).find((answer) => answer !== undefined);
}

/** The voice whose client the argv was built for; Claude Code's when none other claims it. */
export function voiceFor(argv: readonly string[]): ScriptedVoice {
  const others = AGENT_KINDS.slice(1).map(dialectOf);
  return (others.find((dialect) => dialect.voice.recognises(argv)) ?? dialectOf(AGENT_KINDS[0])).voice;
}
