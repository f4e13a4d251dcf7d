import { RalphError } from '../errors.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.js';
import { oneLine } from '../text/neutralise.js';
import type { ItemOutcome } from './apply-plan.js';
import { defaultInstallSpec, installArgument } from './install-spec.js';
import { askRegistry, type AskOptions, type RegistryAnswer } from './registry.js';
import { vendorRunningRalph } from './vendor.js';
import { RALPH_WORKFLOWS, readWorkflow, updateInstallStep, writtenByRalph, installLines } from './workflow-install.js';

/** What the workflows install, and how init got there. */
export interface InstallChoice {
  /** What a workflow written now installs (`./ralph/vendor/….tgz` when vendored); undefined: the default spec. */
  install?: string;
  /** The tarball packed into the repository, relative to its root. */
  packed?: { path: string; existed: boolean };
  /** The existing workflows' install lines to point at `install`; `onlyReplacing`: only lines still at that. */
  update?: { spec: string; onlyReplacing?: string };
  /** Lines init prints about it. */
  notes: string[];
}

/**
 * What the generated workflow installs. `--install` and `--vendor` are the user's word. Without
 * either, the default is this package at this version from the npm registry — when the registry
 * has it. When it does not (or cannot be asked), the job would fail at its install step on its
 * first run, so init vendors this ralph as `--vendor` does, says so, and points the lines ralph
 * wrote that still install the missing version at the tarball; a line the user changed stays.
 */
export async function chooseInstall(options: {
  root: string;
  /** The checked `--install` spec. */
  spec?: string;
  vendor: boolean;
  /** The workflow `--ci` names will be (re)written: it is missing, or --force. */
  writesWorkflow: boolean;
  registry?: AskOptions;
}): Promise<InstallChoice> {
  if (options.spec !== undefined) return { install: options.spec, update: { spec: options.spec }, notes: [] };
  if (options.vendor) {
    const packed = await vendorRunningRalph(options.root);
    return { install: `./${packed.path}`, packed, update: { spec: `./${packed.path}` }, notes: [] };
  }
  const stale = installArgument(defaultInstallSpec());
  const needed = options.writesWorkflow || (await staleWorkflows(options.root, stale)).length > 0;
  if (!needed) return { notes: [] };
  const answer = await askRegistry(PACKAGE_NAME, PACKAGE_VERSION, options.registry);
  if (answer.kind === 'published') return { notes: ['', ...publishedNote()] };
  try {
    const packed = await vendorRunningRalph(options.root);
    const install = `./${packed.path}`;
    return {
      install,
      packed,
      update: { spec: install, onlyReplacing: stale },
      notes: ['', ...vendoredNote(answer, packed.path)],
    };
  } catch (error) {
    if (!(error instanceof RalphError)) throw error;
    return { notes: ['', ...unvendoredNote(answer, error)] };
  }
}

/**
 * Points the install lines of every workflow ralph wrote at the choice: the one `--ci` named when it
 * was kept (the user's word names it, mark or not), and the other one when it bears ralph's mark.
 * A workflow without the mark is the user's: never touched unless named.
 */
export async function updateWorkflows(
  root: string,
  choice: InstallChoice,
  named: { path: string; kept: boolean },
): Promise<ItemOutcome[]> {
  const { update } = choice;
  if (update === undefined) return [];
  const outcomes: ItemOutcome[] = [];
  for (const path of RALPH_WORKFLOWS) {
    if (path === named.path && !named.kept) continue;
    const text = await readWorkflow(root, path);
    if (text === undefined) continue;
    const explicit = path === named.path && update.onlyReplacing === undefined;
    if (!explicit && !writtenByRalph(text)) continue;
    outcomes.push(await updateInstallStep(root, path, update.spec, update));
  }
  return outcomes;
}

/** The workflows ralph wrote whose install line still names this version on the registry. */
async function staleWorkflows(root: string, stale: string): Promise<string[]> {
  const found: string[] = [];
  for (const path of RALPH_WORKFLOWS) {
    const text = await readWorkflow(root, path);
    if (text !== undefined && writtenByRalph(text) && installLines(text).includes(stale)) found.push(path);
  }
  return found;
}

function publishedNote(): string[] {
  return [
    `The workflow installs ${defaultInstallSpec()} from npm. If this ralph is not published there (a fork, a`,
    '  build of your own), name where it comes from: ralph init --ci github --install <git URL or tarball>,',
    '  or pack this one into the repository: ralph init --ci github --vendor',
  ];
}

function whyNotRegistry(answer: Exclude<RegistryAnswer, { kind: 'published' }>): string {
  return answer.kind === 'missing'
    ? `${defaultInstallSpec()} is not on the npm registry (${oneLine(answer.why)})`
    : `ralph could not ask the npm registry for ${defaultInstallSpec()} (${oneLine(answer.why)})`;
}

function vendoredNote(answer: Exclude<RegistryAnswer, { kind: 'published' }>, path: string): string[] {
  return [
    `${whyNotRegistry(answer)}, so the workflow installs this ralph,`,
    `  packed into ${path} (as --vendor does): commit it with the workflow.`,
    `  Once it is published: ralph init --ci github --install ${defaultInstallSpec()}`,
  ];
}

function unvendoredNote(answer: Exclude<RegistryAnswer, { kind: 'published' }>, error: RalphError): string[] {
  return [
    `warning: ${whyNotRegistry(answer)}, and this ralph cannot be packed instead: ${oneLine(error.message)}`,
    `  The workflow installs ${defaultInstallSpec()}, which fails unless it is published: name another with`,
    '  ralph init --ci github --install <git URL or tarball>',
  ];
}
