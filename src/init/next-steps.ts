import type { InitAgent } from './agent-setup.js';

/** What `ralph init` knows about where the user stands. */
export interface Whereabouts {
  /** The agent client set up; its steps are said in its terms. */
  agent: Pick<InitAgent, 'name' | 'install' | 'login' | 'rootAdvice' | 'stopHook'>;
  /** Its executable resolves on PATH. */
  agentFound: boolean;
  /** ralph runs as root and the client would refuse to start (its rule, read from it, is not lifted). */
  root: boolean;
  /** The task list came from ralph.sh (`ralph init --from`), not the example. */
  imported: boolean;
  /** What init wrote besides ralph/, the client's hook settings and .gitignore (the workflow, a vendored tarball). */
  alsoWritten?: readonly string[];
  /** A key is set in the environment or the client's credential file is there: the login step is done. */
  loggedIn?: boolean;
  /** ralph/prd.md differs from the template: the PRD is written (the stories may still be to do). */
  prdWritten?: boolean;
  /** ralph/tasks.json is a task list of the user's own (no longer the example). */
  storiesWritten?: boolean;
  /** ralph's scaffold is committed: nothing of it is untracked. */
  committed?: boolean;
  /** `--matrix` wrote a workflow of one job per ralph/lists/ file, and there is no such file yet. */
  listsMissing?: boolean;
}

/**
 * The steps from here to a first run, numbered, starting from what is missing: install the client,
 * log in, write the stories, commit the scaffold, run. A step already done is left out, so a
 * second `ralph init` does not send the user back over it.
 */
export function nextSteps(where: Whereabouts): string[] {
  const { agent, agentFound, root, imported, alsoWritten = [] } = where;
  const hookSettings = agent.stopHook ? [agent.stopHook.path] : [];
  const scaffold = ['ralph', ...hookSettings, '.gitignore', ...alsoWritten].join(' ');
  const steps = [
    ...(agentFound ? [] : [`Install ${agent.name}: ${agent.install}`]),
    ...(where.loggedIn ? [] : [`Log in to ${agent.name}: ${agent.login}.`]),
    ...(root && agent.rootAdvice ? [agent.rootAdvice] : []),
    ...(where.storiesWritten
      ? []
      : imported
        ? [
            'Check ralph/tasks.json (your prd.json) and copy what you need from ralph/prompt.legacy.md into ralph/prompt.md.',
          ]
        : where.prdWritten
          ? ['Write your stories in ralph/tasks.json from the PRD — and delete its "example": true line.']
          : [
              'Write the PRD in ralph/prd.md (it explains how), then your stories in ralph/tasks.json — and delete its "example": true line.',
            ]),
    // The matrix workflow runs ralph/lists/, never ralph/tasks.json: with none, its run has nothing to do.
    ...(where.listsMissing
      ? ['Add your task lists as ralph/lists/<name>.json (one matrix job each; docs/parallel.md), and commit them.']
      : []),
    ...(where.committed ? [] : [`Commit the scaffold: git add ${scaffold} && git commit -m "Set up ralph"`]),
    'Check, then run: ralph run --dry-run && ralph run --max-iterations 10 --max-stuck 3',
  ];
  return ['Next steps:', ...steps.map((step, index) => `  ${index + 1}. ${step}`)];
}
