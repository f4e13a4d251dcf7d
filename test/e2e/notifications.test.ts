import { createServer, type IncomingMessage } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, makeRepo, runRalph, waitFor } from '../helpers/e2e.js';
import { listen } from '../helpers/local-servers.js';

/** A local webhook on 127.0.0.1 that keeps every JSON body it is sent. */
async function webhook(status = 200) {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      response.writeHead(status).end('ok');
    });
  });
  const port = await listen(server);
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { bodies, url: `http://127.0.0.1:${port}/hook` };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const SECRET = 'S3cretT0kenValue99';

describe('notifications', () => {
  it('a BLOCKED posts once: the reason escaped for Slack, the answer command, the run link in CI', async () => {
    const hook = await webhook();
    const repo = await makeRepo();
    await repo.steps([{ say: '<promise>BLOCKED:tell <!channel> the key & token are missing</promise>' }]);
    const result = await runRalph(repo, ['run', '--notify', `${hook.url}?token=${SECRET}`], {
      env: {
        CI: '1',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'acme/app',
        GITHUB_RUN_ID: '42',
      },
    });
    expect(result.code).toBe(2);
    expect(hook.bodies).toHaveLength(1);
    const [body] = hook.bodies;
    expect(body).toMatchObject({
      event: 'blocked',
      reason: 'blocked',
      exitCode: 2,
      detail: 'tell <!channel> the key & token are missing',
      answer: 'ralph answer "<your answer>"',
      runUrl: 'https://github.com/acme/app/actions/runs/42',
    });
    const text = String(body?.text);
    expect(text).toContain('tell &lt;!channel&gt; the key &amp; token are missing');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('ralph answer "&lt;your answer&gt;"');
    expect(text).toContain('https://github.com/acme/app/actions/runs/42');
    expect(repo.lastRun()).toMatchObject({ reason: 'blocked', notificationsFailed: 0 });
    expect(`${result.stdout}${result.stderr}${repo.read('ralph/logs/last-run.json')}`).not.toContain(SECRET);
  });

  it('warns of a stuck run one strike early, then notifies its ending, in that order', async () => {
    const hook = await webhook();
    const repo = await makeRepo();
    await repo.steps([{}, {}]);
    const result = await runRalph(repo, ['run', '--max-stuck', '2', '--notify', hook.url]);
    expect(result.code).toBe(4);
    expect(hook.bodies.map((body) => body.event)).toEqual(['stuck_warning', 'ended']);
    expect(hook.bodies[0]).toMatchObject({ stuckCount: 1, maxStuck: 2, iteration: 1 });
    expect(hook.bodies[1]).toMatchObject({ reason: 'stuck', exitCode: 4 });
  });

  it('says when the loop starts waiting for a usage limit, with its reset; an interrupt then ends it', async () => {
    const hook = await webhook();
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const reset = Math.floor(Date.now() / 1000) + 600;
    await repo.steps([{ events: [`Claude AI usage limit reached|${reset}`], exit: 1, result: false }]);
    let interrupted = false;
    const result = await runRalph(repo, ['run', '--on-usage-limit', 'wait', '--notify', hook.url], {
      onStdout: (text, child) => {
        if (interrupted || !text.includes('waiting until')) return;
        interrupted = true;
        void waitFor(() => hook.bodies.length === 1).then(() => child.kill('SIGINT'));
      },
    });
    expect(result.code).toBe(130);
    expect(hook.bodies).toEqual([
      expect.objectContaining({ event: 'usage_limit_wait', why: 'usage_limit' }),
      expect.objectContaining({ event: 'ended', reason: 'interrupted', exitCode: 130 }),
    ]);
    expect(Date.parse(String(hook.bodies[0]?.resetsAt))).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('a cmd: target gets the event in RALPH_EVENT_* and as JSON on stdin, with no shell', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-notify-'));
    const script = join(dir, 'hook.mjs');
    await writeFile(
      script,
      [
        "import { readFileSync, writeFileSync } from 'node:fs';",
        'const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("RALPH_EVENT")));',
        'writeFileSync(process.argv[2], JSON.stringify({ env, stdin: readFileSync(0, "utf8"), argv: process.argv.slice(3) }));',
      ].join('\n'),
    );
    const out = join(dir, 'out.json');
    const repo = await makeRepo();
    await repo.steps([{ say: '<promise>DECIDE:WebSockets or polling? $(touch pwned)</promise>' }]);
    const target = `cmd:node ${script} ${out} 'two words' $HOME;ls`;
    const result = await runRalph(repo, ['run', '--notify', target]);
    expect(result.code).toBe(3);
    const seen = JSON.parse(await readFile(out, 'utf8')) as {
      env: Record<string, string>;
      stdin: string;
      argv: string[];
    };
    expect(seen.argv).toEqual(['two words', '$HOME;ls']);
    expect(seen.env).toMatchObject({
      RALPH_EVENT_NAME: 'decide',
      RALPH_EVENT_REASON: 'decide',
      RALPH_EVENT_EXIT_CODE: '3',
      RALPH_EVENT_DETAIL: 'WebSockets or polling? $(touch pwned)',
      RALPH_EVENT_ANSWER: 'ralph answer "<your answer>"',
    });
    expect(JSON.parse(seen.stdin)).toMatchObject({ event: 'decide', detail: 'WebSockets or polling? $(touch pwned)' });
    expect(repo.exists('pwned')).toBe(false);
  });

  it('ends a command that hangs, and its group; the run keeps its exit code and counts the failure', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-notify-'));
    const pids = join(dir, 'pids');
    const repo = await makeRepo();
    await repo.steps([{ say: '<promise>BLOCKED:waiting</promise>' }]);
    const hang = `cmd:sh -c 'sleep 60 & echo $! > ${pids}; wait'`;
    const result = await runRalph(repo, ['run', '--notify', hang], { env: { RALPH_TEST_NOTIFY_TIMEOUT_MS: '500' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/warning: the blocked notification to cmd:sh .* failed: it did not finish in time/);
    expect(repo.lastRun()).toMatchObject({ reason: 'blocked', notificationsFailed: 1 });
    const sleeper = Number((await readFile(pids, 'utf8')).trim());
    expect(isAlive(sleeper)).toBe(false);
  });

  it('a failing command and a refusing webhook are one warning line each, counted; the exit code stands', async () => {
    const hook = await webhook(500);
    const repo = await makeRepo();
    await repo.steps([{ say: '<promise>BLOCKED:waiting</promise>' }]);
    const result = await runRalph(repo, ['run', '--notify', "cmd:sh -c 'exit 3'", '--notify', hook.url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("warning: the blocked notification to cmd:sh -c 'exit 3' failed: it exited with 3");
    expect(result.stderr).toContain(
      `warning: the blocked notification to ${hook.url} failed: the server answered HTTP 500`,
    );
    expect(repo.lastRun()).toMatchObject({ notificationsFailed: 2 });
  });

  it('a COMPLETE on a terminal notifies only when asked to', async () => {
    const hook = await webhook();
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run', '--notify', hook.url])).code).toBe(0);
    expect(hook.bodies).toHaveLength(0);
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', notificationsFailed: 0 });
    const again = await runRalph(repo, ['run', '--notify', hook.url, '--notify-on', 'ended']);
    expect(again.code).toBe(0);
    expect(hook.bodies).toHaveLength(1);
    expect(hook.bodies[0]).toMatchObject({ event: 'ended', reason: 'complete' });
  });

  it('refuses a target it cannot send to with 64, naming the flag or variable and the value masked', async () => {
    const repo = await makeRepo();
    const flag = await runRalph(repo, ['run', '--notify', `http://hooks.example.com/T1/${SECRET}?token=x`]);
    expect(flag.code).toBe(64);
    expect(flag.stderr).toContain(
      "option '--notify <target>' argument 'http://hooks.example.com/T1/***?***' is invalid",
    );
    expect(flag.stderr).not.toContain(SECRET);
    const variable = await runRalph(repo, ['run'], { env: { RALPH_NOTIFY: 'desktop,ftp://x' } });
    expect(variable.code).toBe(64);
    expect(variable.stderr).toContain('environment variable RALPH_NOTIFY: expected desktop, an https:// URL');
    await repo.write('ralph/config.json', JSON.stringify({ notify: ['desktop', `http://evil.example/${SECRET}`] }));
    const config = await runRalph(repo, ['run']);
    expect(config.code).toBe(64);
    expect(config.stderr).toContain('ralph/config.json: notify');
    expect(config.stderr).toContain("localhost, 127.0.0.1 or ::1 (else https://), got 'http://evil.example/***'");
    expect(config.stderr).not.toContain(SECRET);
  });

  it('--dry-run lists the targets masked', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, [
      'run',
      '--dry-run',
      '--notify',
      `https://hooks.slack.com/services/T0001/B0002/${SECRET}`,
      '--notify',
      'desktop',
    ]);
    expect(result.stdout).toMatch(
      /notify\s+https:\/\/hooks\.slack\.com\/services\/T0001\/B0002\/\*\*\*, desktop\s*flag/,
    );
    expect(result.stdout).not.toContain(SECRET);
  });
});
