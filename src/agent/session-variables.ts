import { CLAUDE_SESSION_VARIABLES } from './claude/session.js';

/**
 * The variables a client sets for what it runs, so that a client started under it knows it is
 * nested. Kept light (no dialect loaded): every agent and gate environment is cleaned of them.
 */
export const SESSION_VARIABLES: readonly string[] = [...CLAUDE_SESSION_VARIABLES];
