import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl now: its files and contents. */
export function selfSignedCertificate(): { certPath: string; cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ralph-cert-'));
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  return { certPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
}

/** Resolves to the port the server listens on, on 127.0.0.1. */
export function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** An HTTPS server on 127.0.0.1 answering every request with `status`, counting the requests. */
export async function httpsServer(certificate: { cert: string; key: string }, status = 404) {
  let requests = 0;
  const server = createHttpsServer({ cert: certificate.cert, key: certificate.key }, (_request, response) => {
    requests++;
    response.writeHead(status).end();
  });
  const port = await listen(server);
  return { port, requests: () => requests, close: () => closeServer(server) };
}

/** A server that accepts connections and never says a word. */
export async function silentServer() {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => sockets.push(socket));
  const port = await listen(server);
  return {
    port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return closeServer(server);
    },
  };
}

/** An HTTP proxy that tunnels CONNECT to 127.0.0.1 (or refuses every tunnel with 403), recording the targets. */
export async function connectProxy(options: { refuse?: boolean } = {}) {
  const targets: string[] = [];
  const server = createHttpServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request, client: Socket) => {
    targets.push(request.url ?? '');
    if (options.refuse) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const port = Number((request.url ?? '').split(':').pop());
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await listen(server);
  return { port, targets, close: () => closeServer(server) };
}

function closeServer(server: { close: (done: () => void) => void; closeAllConnections?: () => void }): Promise<void> {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}
