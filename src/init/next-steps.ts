/** What `ralph init` knows about where the user stands. */
export interface Whereabouts {
  /** `claude` resolves on PATH. */
  claudeFound: boolean;
  /** ralph runs as root without IS_SANDBOX: Claude Code would refuse to start (a normal user, or IS_SANDBOX=1). */
  root: boolean;
  /** The task list came from ralph.sh (`ralph init --from`), not the example. */
  imported: boolean;
  /** What init wrote besides ralph/, .claude/settings.json and .gitignore (the CI workflow, a vendored tarball). */
  alsoWritten?: readonly string[];
}

/**
 * The steps from here to a first run, numbered, starting from what is missing: install Claude
 * Code, log in, write the stories, commit the scaffold, run.
 */
export function nextSteps({ claudeFound, root, imported, alsoWritten = [] }: Whereabouts): string[] {
  const scaffold = ['ralph', '.claude/settings.json', '.gitignore', ...alsoWritten].join(' ');
  const steps = [
    ...(claudeFound ? [] : ['Install Claude Code: npm install -g @anthropic-ai/claude-code']),
    'Log in to Claude Code: run `claude` once and follow the prompts (or set ANTHROPIC_API_KEY).',
    ...(root ? ['You are root: run ralph as a normal user, or set IS_SANDBOX=1 in a container you trust.'] : []),
    ...(imported
      ? [
          'Check ralph/tasks.json (your prd.json) and copy what you need from ralph/prompt.legacy.md into ralph/prompt.md.',
        ]
      : [
          'Write the PRD in ralph/prd.md (it explains how), then your stories in ralph/tasks.json — and delete its "example": true line.',
        ]),
    `Commit the scaffold: git add ${scaffold} && git commit -m "Set up ralph"`,
    'Check, then run: ralph run --dry-run && ralph run --max-iterations 10 --max-stuck 3',
  ];
  return ['Next steps:', ...steps.map((step, index) => `  ${index + 1}. ${step}`)];
}
