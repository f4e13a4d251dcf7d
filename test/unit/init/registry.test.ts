import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { askRegistry, REGISTRY_TEST_KNOB } from '../../../src/init/registry.js';

/** A registry of the test's own on a free local port: it answers as `handle` says, and records what was asked. */
async function registry(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(request.url ?? '');
    handle(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const NO_KNOB = { env: {} };

describe('askRegistry', () => {
  it('a version the registry has is published; it asks for that version of that package', async () => {
    const { url, asked } = await registry((_request, response) => response.end('{"version":"1.2.0"}'));
    expect(await askRegistry('ralph-loop-cli', '1.2.0', { registry: url, ...NO_KNOB })).toEqual({ kind: 'published' });
    await askRegistry('@me/ralph', '1.2.0', { registry: `${url}/`, ...NO_KNOB });
    expect(asked).toEqual(['/ralph-loop-cli/1.2.0', '/@me%2Fralph/1.2.0']);
  });

  it('a 404 is missing, another status could not be asked', async () => {
    const status = { code: 404 };
    const { url } = await registry((_request, response) => {
      response.statusCode = status.code;
      response.end('{"error":"Not found"}');
    });
    expect(await askRegistry('ralph-loop-cli', '0.1.0', { registry: url, ...NO_KNOB })).toEqual({
      kind: 'missing',
      why: `${url} answered 404`,
    });
    status.code = 503;
    expect(await askRegistry('ralph-loop-cli', '0.1.0', { registry: url, ...NO_KNOB })).toEqual({
      kind: 'unreachable',
      why: `${url} answered 503`,
    });
  });

  it('a registry that never answers is given up after the timeout, not waited on', async () => {
    // The request is held forever: the timeout is what ends it, however slow the machine (it may
    // even end before the server has read the request, which is the same answer).
    const { url } = await registry(() => undefined);
    const answer = await askRegistry('ralph-loop-cli', '0.1.0', { registry: url, timeoutMs: 100, ...NO_KNOB });
    expect(answer).toEqual({ kind: 'unreachable', why: `no answer from ${url} in 100ms` });
  });

  it('a registry nobody listens at could not be asked, with the reason', async () => {
    const { url } = await registry(() => undefined);
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    const answer = await askRegistry('ralph-loop-cli', '0.1.0', { registry: url, ...NO_KNOB });
    expect(answer).toEqual({ kind: 'unreachable', why: `${url}: ECONNREFUSED` });
  });

  it.each([
    ['published', 'published'],
    ['missing', 'missing'],
    ['unreachable', 'unreachable'],
  ])("the tests' injected answer %s is taken without asking", async (value, kind) => {
    const { url, asked } = await registry((_request, response) => response.end('{}'));
    const answer = await askRegistry('ralph-loop-cli', '0.1.0', {
      registry: url,
      env: { [REGISTRY_TEST_KNOB]: value },
    });
    expect(answer.kind).toBe(kind);
    expect(asked).toEqual([]);
  });
});
