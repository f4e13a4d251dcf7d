import { describe, expect, it } from 'vitest';
import { nextSteps } from '../../../src/init/next-steps.js';
import { initAgent } from '../../../src/commands/init-agent.js';
import { dialectOf } from '../../../src/agent/dialects.js';

const agent = initAgent('claude', dialectOf('claude'), '2.1.332');

const numbered = (lines: string[]) => lines.slice(1).map((line) => line.replace(/^ {2}\d+\. /, ''));

describe('nextSteps', () => {
  it('starts with what is missing: Claude Code, then the login, and as root the IS_SANDBOX caveat', () => {
    const steps = numbered(nextSteps({ agent, agentFound: false, root: true, imported: false }));
    expect(steps[0]).toMatch(/^Install Claude Code/);
    expect(steps[1]).toMatch(/^Log in/);
    expect(steps[2]).toMatch(/IS_SANDBOX=1/);
    expect(steps.slice(3).join('\n')).toMatch(
      /ralph\/prd\.md[\s\S]*git add ralph \.claude\/settings\.json[\s\S]*ralph run/,
    );
  });

  it('numbers the steps from 1 whatever is left out', () => {
    const lines = nextSteps({ agent, agentFound: true, root: false, imported: false });
    expect(lines[0]).toBe('Next steps:');
    expect(lines.slice(1).map((line) => /^ {2}(\d+)\./.exec(line)?.[1])).toEqual(['1', '2', '3', '4']);
  });

  it('names every file init wrote in the commit step: the workflow and a vendored tarball too', () => {
    const steps = numbered(
      nextSteps({
        agent,
        agentFound: true,
        root: false,
        imported: false,
        alsoWritten: ['.github/workflows/ralph.yml', 'ralph/vendor/ralph-loop-cli-1.0.0.tgz'],
      }),
    );
    expect(steps).toContain(
      'Commit the scaffold: git add ralph .claude/settings.json .gitignore .github/workflows/ralph.yml ralph/vendor/ralph-loop-cli-1.0.0.tgz && git commit -m "Set up ralph"',
    );
  });

  it('after an import points at the imported list and the legacy prompt instead of the example', () => {
    const steps = numbered(nextSteps({ agent, agentFound: true, root: false, imported: true })).join('\n');
    expect(steps).toContain('ralph/prompt.legacy.md');
    expect(steps).not.toContain('"example": true');
  });

  it('leaves out what is done: the login, the PRD and the stories, the commit — only the run is left', () => {
    const base = { agent, agentFound: true, root: false, imported: false };
    const prd = numbered(nextSteps({ ...base, loggedIn: true, prdWritten: true }));
    expect(prd[0]).toBe('Write your stories in ralph/tasks.json from the PRD — and delete its "example": true line.');
    const done = numbered(
      nextSteps({ ...base, loggedIn: true, prdWritten: true, storiesWritten: true, committed: true }),
    );
    expect(done).toEqual(['Check, then run: ralph run --dry-run && ralph run --max-iterations 10 --max-stuck 3']);
  });
});
