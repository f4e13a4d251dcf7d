/** CI systems `ralph init --ci` can write a workflow for. */
export type CiProvider = 'github';
export const CI_PROVIDERS: readonly CiProvider[] = ['github'];

/** Where `ralph init --ci github` writes the workflow, relative to the repository root. */
export const GITHUB_WORKFLOW = '.github/workflows/ralph.yml';
