import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_BIN_DIR, makeRepo, runRalph, type Repo } from '../helpers/e2e.js';

// After a run started with --agent-bin, the summary's next step and `ralph answer --run` agree: a
// program inside the repository is replayed (the agent could make code there run anyway), one
// outside it is not, and the summary says to answer and run again instead of suggesting --run.

const ASK = { say: '<promise>DECIDE:WebSockets or polling?</promise>' };
const FINISH = { implement: true, completeWhenDone: true };
const OUTSIDE = join(FAKE_BIN_DIR, 'claude');
const ANSWER_THEN_RUN = 'then run again with your --agent-bin, which --run does not replay';

/** The next step `ralph report` names (its Markdown, escapes undone), written outside the work tree. */
async function reportNext(repo: Repo): Promise<string> {
  const out = join(await mkdtemp(join(tmpdir(), 'ralph-report-')), 'report.md');
  const result = await runRalph(repo, ['report', '--format', 'md', '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  const next = readFileSync(out, 'utf8')
    .split('\n')
    .find((line) => line.startsWith('**Next:**'));
  const entities: Record<string, string> = { '&quot;': '"', '&lt;': '<', '&gt;': '>', '&amp;': '&' };
  return (next ?? '').replace(/\\/g, '').replace(/&(quot|lt|gt|amp);/g, (entity) => entities[entity] ?? entity);
}

describe('ralph answer --run after a run with --agent-bin', () => {
  it('a program outside the repository: the summary says answer, then run; --run refuses, answering nothing', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([ASK, FINISH]);
    const asked = await runRalph(repo, ['run', '--agent-bin', OUTSIDE]);
    expect(asked.code).toBe(3);
    expect(asked.stdout).toContain(
      'Next:        answer with `ralph answer "<your answer>"`, then run again with your --agent-bin, which --run does not replay',
    );
    expect(asked.stdout).not.toContain('ralph answer --run');
    // A start while the question waits, and the report, name the same two commands.
    const again = await runRalph(repo, ['run', '--agent-bin', OUTSIDE]);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain(`answer with \`ralph answer "<your answer>"\`, ${ANSWER_THEN_RUN}`);
    expect(again.stderr).not.toContain('ralph answer --run');
    expect(await reportNext(repo)).toBe(
      `**Next:** Answer the question with ralph answer "<your answer>", ${ANSWER_THEN_RUN}.`,
    );
    const before = repo.read('ralph/decide.txt');
    const refused = await runRalph(repo, ['answer', '--run', 'Use polling.']);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain(
      `--run: .git/ralph/last-run.json holds --agent-bin ${OUTSIDE}, a program outside the repository; a replay runs no program from there`,
    );
    expect(repo.read('ralph/decide.txt')).toBe(before);
    expect(repo.calls()).toBe(1);
    // The two commands the summary names finish the job.
    expect((await runRalph(repo, ['answer', 'Use polling.'])).code).toBe(0);
    expect((await runRalph(repo, ['run', '--agent-bin', OUTSIDE])).code).toBe(0);
  });

  it('a program inside the repository: the summary suggests --run, and --run replays it', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await writeFile(join(repo.root, 'agent.sh'), `#!/bin/sh\nexec '${OUTSIDE}' "$@"\n`);
    await chmod(join(repo.root, 'agent.sh'), 0o755);
    repo.git('add', 'agent.sh');
    repo.git('commit', '-qm', 'an agent of the project');
    await repo.steps([ASK, FINISH]);
    const asked = await runRalph(repo, ['run', '--agent-bin', './agent.sh']);
    expect(asked.code).toBe(3);
    expect(asked.stdout).toContain('Next:        answer with `ralph answer --run "<your answer>"`');
    const again = await runRalph(repo, ['run', '--agent-bin', './agent.sh']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('answer with `ralph answer --run "<your answer>"`');
    expect(await reportNext(repo)).toBe('**Next:** Answer the question and go on: ralph answer --run "<your answer>".');
    const answered = await runRalph(repo, ['answer', '--run', 'Use polling.']);
    expect(answered.code, answered.stderr).toBe(0);
    expect(repo.calls()).toBe(2);
  });

  it('a program found on PATH is not replayed either', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([ASK]);
    expect((await runRalph(repo, ['run', '--agent-bin', 'claude'])).code).toBe(3);
    const refused = await runRalph(repo, ['answer', '--run', 'Use polling.']);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('holds --agent-bin claude, a program found on PATH');
  });
});
