import { request } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowList, startNetworkProxy } from '../../../src/box/network-proxy.js';

describe('the allow-list', () => {
  it('takes a host, a host and port, or a wildcard domain, and nothing else', () => {
    const allows = allowList(['api.anthropic.com', '127.0.0.1:8080', '*.npmjs.org', '[::1]:9000']);
    expect(allows('api.anthropic.com', 443)).toBe(true);
    expect(allows('API.Anthropic.com', 80)).toBe(true);
    expect(allows('api.anthropic.com.evil.example', 443)).toBe(false);
    expect(allows('127.0.0.1', 8080)).toBe(true);
    expect(allows('127.0.0.1', 8081)).toBe(false);
    expect(allows('registry.npmjs.org', 443)).toBe(true);
    expect(allows('npmjs.org.evil.example', 443)).toBe(false);
    expect(allows('evilnpmjs.org', 443)).toBe(false);
    expect(allows('::1', 9000)).toBe(true);
  });
});

describe('the network proxy', () => {
  it('tunnels to a host on the list and refuses one off it, saying which', async () => {
    const echo = createServer((socket) => socket.end('hello from upstream'));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const port = (echo.address() as { port: number }).port;
    const socketPath = join(await mkdtemp(join(tmpdir(), 'ralph-proxy-')), 'p.sock');
    const refused: string[] = [];
    const proxy = await startNetworkProxy(socketPath, allowList([`127.0.0.1:${port}`]), (target) =>
      refused.push(target),
    );
    const tunnel = (target: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ socketPath, method: 'CONNECT', path: target });
        // What came with the answer's head is the tunnel's first bytes.
        req.on('connect', (res, socket, head: Buffer) => {
          let body = head.toString();
          socket.on('data', (chunk: Buffer) => (body += chunk.toString()));
          socket.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await tunnel(`127.0.0.1:${port}`)).toEqual({ status: 200, body: 'hello from upstream' });
      const off = await tunnel(`127.0.0.1:${port + 1}`);
      expect(off.status).toBe(403);
      expect(refused).toEqual([`127.0.0.1:${port + 1}`]);
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });
});
