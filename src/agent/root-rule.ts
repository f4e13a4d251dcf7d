/**
 * A client that refuses to run as root when started with its permission switch, and what lifts
 * the refusal. ralph says the refusal before any call, in the client's own terms.
 */
export interface RootRule {
  /** Whether the client, started by this executable with or without the switch, refuses root. */
  applies: (agentBin: string, skipPermissions: boolean) => boolean;
  /** What in `env` lets it start as root after all, as the check says it; undefined: nothing does. */
  liftedBy: (env: NodeJS.ProcessEnv) => string | undefined;
  /** Its refusal under `env`, with the fix. */
  refusal: (env: NodeJS.ProcessEnv) => { message: string; hint: string };
  /** The check's word when ralph runs as root but the rule does not apply (another executable, no switch). */
  notApplying: string;
  /** `ralph init`'s step for a user who is root, where nothing in `env` lifts the refusal yet. */
  advice: (env: NodeJS.ProcessEnv) => string;
}
