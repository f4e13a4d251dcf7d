import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';

/** Whether the box may reach a host and port: an entry is `host`, `host:port`, or `*.domain`. */
export type HostCheck = (host: string, port: number) => boolean;

/** The allow-list's check. Names are compared without case; an IPv6 address may be bracketed. */
export function allowList(entries: readonly string[]): HostCheck {
  const rules = entries.map((entry) => {
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.trim().toLowerCase());
    return {
      host: (match?.[1] ?? '').replace(/^\[|\]$/g, ''),
      port: match?.[2] === undefined ? undefined : Number(match[2]),
    };
  });
  return (host, port) => {
    const name = host.toLowerCase().replace(/^\[|\]$/g, '');
    return rules.some(
      (rule) =>
        (rule.port === undefined || rule.port === port) &&
        (rule.host === name || (rule.host.startsWith('*.') && name.endsWith(rule.host.slice(1)))),
    );
  };
}

/** The proxy's answer to a host off the list, for the client's error output and the log. */
function refusal(target: string): string {
  return `ralph's box: ${target} is not on the network allow-list (--box-allow-host ${target})`;
}

/**
 * The box's only way out in allow-list mode: an HTTP proxy on a Unix socket, which the box reaches
 * through its own loopback (the bridge inside it). It opens a tunnel (CONNECT, for https) or
 * forwards a plain request only to a host on the list, and says which it refused.
 */
export async function startNetworkProxy(socketPath: string, allowed: HostCheck, onRefused: (target: string) => void) {
  const open = new Set<Socket>();
  const server = createServer((req, res) => forward(req, res, allowed, onRefused));
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    tunnel(req.url ?? '', client, head, allowed, onRefused);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function tunnel(target: string, client: Socket, head: Buffer, allowed: HostCheck, onRefused: (target: string) => void) {
  const at = target.lastIndexOf(':');
  const host = target.slice(0, at);
  const port = Number(target.slice(at + 1));
  client.on('error', () => client.destroy());
  if (at < 1 || !Number.isInteger(port) || !allowed(host, port)) {
    onRefused(target);
    client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${refusal(target)}\n`);
    return;
  }
  const upstream = connect(port, host.replace(/^\[|\]$/g, ''), () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  client.on('close', () => upstream.destroy());
}

function forward(req: IncomingMessage, res: ServerResponse, allowed: HostCheck, onRefused: (target: string) => void) {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400).end();
    return;
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (url.protocol !== 'http:' || !allowed(url.hostname, port)) {
    onRefused(`${url.hostname}:${port}`);
    res.writeHead(403, { 'content-type': 'text/plain' }).end(`${refusal(`${url.hostname}:${port}`)}\n`);
    return;
  }
  const upstream = request(
    { host: url.hostname, port, method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
}
