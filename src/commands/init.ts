import pc from 'picocolors';
import { findRepoRoot } from '../git/repository.js';
import { applyPlan, type ItemOutcome } from '../init/apply-plan.js';
import type { CiProvider } from '../init/ci-providers.js';
import { planInit } from '../init/init-plan.js';

export interface InitOptions {
  cwd: string;
  /** Replace ralph's template files the user already has. */
  force?: boolean;
  /** Also write a CI workflow. */
  ci?: CiProvider;
  stdout?: NodeJS.WritableStream;
}

/** `ralph init`: scaffolds ralph/ at the repository root and says what to do next. */
export async function initCommand(options: InitOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const root = await findRepoRoot(options.cwd);
  const outcomes = await applyPlan(root, planInit({ ci: options.ci }), { force: options.force ?? false });
  stdout.write(renderInit(root, outcomes, options.force ?? false));
  return 0;
}

/** The report: one line per item that matters, then the next steps. */
export function renderInit(root: string, outcomes: readonly ItemOutcome[], force: boolean): string {
  const lines = [`${pc.bold('ralph init')} in ${root}`];
  const isKept = (outcome: ItemOutcome) => outcome.result === 'exists' || outcome.result === 'unchanged';
  const changed = outcomes.filter((outcome) => !isKept(outcome));
  const kept = outcomes.filter(isKept);
  for (const outcome of changed) lines.push(`  ${describe(outcome)}`);
  if (changed.length === 0) lines.push('  nothing changed: ralph is already set up here');
  if (kept.length > 0) {
    lines.push(`  already exists, kept: ${kept.map((outcome) => outcome.path).join(', ')}`);
    if (!force) lines.push(pc.dim('  (ralph init --force replaces the template files; .gitignore is only ever added to)'));
  }
  lines.push(
    '',
    'Next steps:',
    '  1. Write the PRD in ralph/prd.md (it explains how).',
    '  2. Turn it into small stories in ralph/tasks.json.',
    '  3. Run the loop: ralph run --max-iterations 10 --max-stuck 3',
  );
  return lines.join('\n') + '\n';
}

function describe(outcome: ItemOutcome): string {
  switch (outcome.result) {
    case 'created':
      return `${pc.green('created ')} ${outcome.path}`;
    case 'replaced':
      return `${pc.yellow('replaced')} ${outcome.path}`;
    case 'updated':
      return `${pc.green('updated ')} ${outcome.path} (added ${outcome.added.join(', ')})`;
    case 'exists':
    case 'unchanged':
      return `kept     ${outcome.path}`;
  }
}
