import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeEndpoint, proxyFor } from '../../../src/agent/reachability.js';
import { connectProxy, httpsServer, listen, selfSignedCertificate, silentServer } from '../../helpers/local-servers.js';
import { createServer } from 'node:net';

// Local servers on 127.0.0.1 and an unresolvable .invalid name: never the network.
const certificate = selfSignedCertificate();
let api: Awaited<ReturnType<typeof httpsServer>>;
beforeAll(async () => {
  api = await httpsServer(certificate, 404);
});
afterAll(() => api.close());

const trusted = { env: {}, timeoutMs: 5_000, ca: certificate.cert };

describe('probeEndpoint', () => {
  it('finds an endpoint that answers with any HTTP status reachable, in one request', async () => {
    const before = api.requests();
    const reach = await probeEndpoint(new URL(`https://127.0.0.1:${api.port}`), trusted);
    expect(reach).toEqual({ ok: true, status: 404 });
    expect(api.requests()).toBe(before + 1);
  });

  it('fails a certificate that does not verify', async () => {
    const reach = await probeEndpoint(new URL(`https://127.0.0.1:${api.port}`), { env: {}, timeoutMs: 5_000 });
    expect(reach).toMatchObject({ ok: false, cause: 'tls' });
    expect(!reach.ok && reach.reason).toMatch(/certificate of 127\.0\.0\.1:\d+ does not verify \(\w+/);
  });

  it('fails a name that does not resolve', async () => {
    const reach = await probeEndpoint(new URL('https://api.ralph-preflight.invalid'), trusted);
    expect(reach).toMatchObject({ ok: false, cause: 'dns' });
    expect(!reach.ok && reach.reason).toContain('api.ralph-preflight.invalid does not resolve');
  });

  it('fails a refused connection', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const reach = await probeEndpoint(new URL(`https://127.0.0.1:${port}`), trusted);
    expect(reach).toEqual({ ok: false, cause: 'connect', reason: `127.0.0.1:${port} refused the connection` });
  });

  it('gives up on a server that never answers after the timeout it was given', async () => {
    const silent = await silentServer();
    try {
      const reach = await probeEndpoint(new URL(`https://127.0.0.1:${silent.port}`), { ...trusted, timeoutMs: 200 });
      expect(reach).toEqual({
        ok: false,
        cause: 'timeout',
        reason: `no answer from 127.0.0.1:${silent.port} within 0.2 s`,
      });
    } finally {
      await silent.close();
    }
  });

  it('goes through the HTTPS_PROXY the client would use, with a CONNECT tunnel', async () => {
    const proxy = await connectProxy();
    try {
      const reach = await probeEndpoint(new URL(`https://127.0.0.1:${api.port}`), {
        ...trusted,
        env: { HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` },
      });
      expect(reach).toEqual({ ok: true, status: 404 });
      expect(proxy.targets).toEqual([`127.0.0.1:${api.port}`]);
    } finally {
      await proxy.close();
    }
  });

  it('fails when the proxy refuses the tunnel', async () => {
    const proxy = await connectProxy({ refuse: true });
    try {
      const reach = await probeEndpoint(new URL(`https://127.0.0.1:${api.port}`), {
        ...trusted,
        env: { https_proxy: `127.0.0.1:${proxy.port}` },
      });
      expect(reach).toEqual({
        ok: false,
        cause: 'proxy',
        reason: `the proxy 127.0.0.1:${proxy.port} refused a tunnel to 127.0.0.1:${api.port} (HTTP 403)`,
      });
    } finally {
      await proxy.close();
    }
  });
});

describe('proxyFor', () => {
  it.each([
    [{}, undefined],
    [{ HTTPS_PROXY: 'http://proxy:3128' }, 'http://proxy:3128/'],
    [{ https_proxy: 'proxy:3128' }, 'http://proxy:3128/'],
    [{ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'anthropic.com' }, undefined],
    [{ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: '.anthropic.com' }, undefined],
    [{ HTTPS_PROXY: 'http://proxy:3128', no_proxy: '*' }, undefined],
    [{ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'example.com,thropic.com' }, 'http://proxy:3128/'],
    [{ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'api.anthropic.com:8443' }, 'http://proxy:3128/'],
  ])('%j → %s', (env, expected) => {
    expect(proxyFor('api.anthropic.com', 443, env)?.href).toBe(expected);
  });
});
