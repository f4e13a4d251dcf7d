/** CI systems `ralph init --ci` can write a workflow for. */
export type CiProvider = 'github';
export const CI_PROVIDERS: readonly CiProvider[] = ['github'];
