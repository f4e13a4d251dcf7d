import { RalphError } from '../errors.js';

/**
 * The refusal to run the example task list `ralph init` and `ralph archive` write: its stories
 * are real-looking work the agent would build in the user's repository.
 */
export function exampleRefusal(shown: string): RalphError {
  return new RalphError(
    'setup',
    `${shown} is still the example: write your stories (see ralph/prd.md), then remove "example"`,
    'or pass --yes to run the example anyway',
  );
}
