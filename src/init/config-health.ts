import { loadConfig } from '../config/load-config.js';
import { errorLine, RalphError } from '../errors.js';
import { ralphPaths } from '../files/paths.js';

/**
 * Why `ralph run` would refuse ralph/config.json as init leaves it, if it would: init never
 * overwrites the user's config, so a broken one stays broken, and init says so rather than
 * leaving the first `ralph run` to find out. The check is `ralph run`'s own (loadConfig).
 */
export async function brokenConfigReason(root: string): Promise<string | undefined> {
  try {
    await loadConfig(ralphPaths(root).config, 'ralph/config.json');
    return undefined;
  } catch (error) {
    if (!(error instanceof RalphError)) throw error;
    return errorLine(error).replace(/^ralph: /, '');
  }
}
