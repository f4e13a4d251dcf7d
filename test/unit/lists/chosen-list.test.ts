import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { envName, RUN_OPTIONS } from '../../../src/config/run-options.js';
import { chooseTaskList, TASKS_VARIABLE } from '../../../src/lists/chosen-list.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ralph-chosen-'));
  await mkdir(join(root, 'ralph/lists'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('chooseTaskList', () => {
  it("reads the variable --tasks's option names, without loading the options to learn it", () => {
    expect(TASKS_VARIABLE).toBe(envName(RUN_OPTIONS.tasks.flag));
  });

  it('is ralph/tasks.json when nothing names another', async () => {
    expect(await chooseTaskList(root, root, undefined, {})).toEqual({ file: join(root, 'ralph/tasks.json') });
  });

  it('takes the flag over the variable over the config, each with its list name', async () => {
    await writeFile(join(root, 'ralph/config.json'), JSON.stringify({ tasks: 'ralph/lists/config.json' }));
    const env = { RALPH_TASKS: 'ralph/lists/env.json' };
    expect(await chooseTaskList(root, root, 'ralph/lists/flag.json', env)).toEqual({
      file: join(root, 'ralph/lists/flag.json'),
      name: 'flag',
    });
    expect((await chooseTaskList(root, root, undefined, env)).name).toBe('env');
    expect((await chooseTaskList(root, root, undefined, {})).name).toBe('config');
  });

  it('reads a flag from where ralph started, and the config from the root', async () => {
    await mkdir(join(root, 'sub'));
    await writeFile(join(root, 'ralph/config.json'), JSON.stringify({ tasks: 'ralph/lists/a.json' }));
    expect((await chooseTaskList(root, join(root, 'sub'), '../ralph/lists/b.json', {})).name).toBe('b');
    expect((await chooseTaskList(root, join(root, 'sub'), undefined, {})).file).toBe(join(root, 'ralph/lists/a.json'));
  });

  it('has no list name for a file outside ralph/lists/', async () => {
    expect(await chooseTaskList(root, root, 'plans/x.json', {})).toEqual({ file: join(root, 'plans/x.json') });
  });

  it('refuses a file outside the repository, or the repository itself', async () => {
    for (const given of ['/etc/passwd', '../elsewhere.json', '.']) {
      const error = await chooseTaskList(root, root, given, {}).catch((thrown: unknown) => thrown);
      expect(error, given).toBeInstanceOf(RalphError);
      expect((error as RalphError).message).toContain(
        `--tasks ${given}: the task list must be a file inside the repository`,
      );
    }
  });
});
