import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type SecureContextOptions } from 'node:tls';

/** What one HTTPS request to an endpoint found: any HTTP answer means reachable. */
export type Reach =
  { ok: true; status: number } | { ok: false; reason: string; cause: 'dns' | 'tls' | 'proxy' | 'connect' | 'timeout' };

export interface ProbeOptions {
  /** The proxy variables are read from here (HTTPS_PROXY, https_proxy, NO_PROXY, no_proxy). */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Certificates to trust instead of Node's (tests); NODE_EXTRA_CA_CERTS is honoured by Node itself. */
  ca?: SecureContextOptions['ca'];
}

/**
 * One HEAD request to `url`, the way the client will go: through the HTTPS proxy the environment
 * names (a CONNECT tunnel; Node 20's fetch has no proxy support) unless NO_PROXY exempts the host,
 * verifying the certificate. Never rejects: a failure is a reason.
 */
export async function probeEndpoint(url: URL, options: ProbeOptions): Promise<Reach> {
  const sockets: Socket[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Reach>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          ok: false,
          cause: 'timeout',
          reason: `no answer from ${url.host} within ${options.timeoutMs / 1000} s`,
        }),
      options.timeoutMs,
    );
  });
  try {
    return await Promise.race([attempt(url, options, sockets), timeout]);
  } finally {
    clearTimeout(timer);
    for (const socket of sockets) socket.destroy();
  }
}

async function attempt(url: URL, options: ProbeOptions, sockets: Socket[]): Promise<Reach> {
  const https = url.protocol === 'https:';
  const port = Number(url.port || (https ? 443 : 80));
  const proxy = https ? proxyFor(url.hostname, port, options.env) : undefined;
  try {
    let socket: Socket;
    if (proxy) {
      const tunnel = await openSocket(proxy, sockets, options.ca);
      const refused = await connectTunnel(tunnel, url.hostname, port, proxy);
      if (refused) return { ok: false, cause: 'proxy', reason: refused };
      socket = tunnel;
    } else socket = await openPlain(url.hostname, port, sockets);
    if (https) socket = await startTls(socket, url.hostname, sockets, options.ca);
    return { ok: true, status: await headStatus(socket, url) };
  } catch (error) {
    return describeFailure(error, url, proxy);
  }
}

/** The proxy for this host, as curl and the client read the variables; undefined when none applies. */
export function proxyFor(host: string, port: number, env: NodeJS.ProcessEnv): URL | undefined {
  const raw = env.HTTPS_PROXY ?? env.https_proxy;
  if (!raw) return undefined;
  const exempt = (env.NO_PROXY ?? env.no_proxy ?? '').split(',').map((entry) => entry.trim().toLowerCase());
  const name = host.toLowerCase();
  for (const entry of exempt) {
    if (entry === '') continue;
    if (entry === '*') return undefined;
    const [pattern = '', entryPort] = entry.split(':');
    if (entryPort !== undefined && Number(entryPort) !== port) continue;
    const bare = pattern.replace(/^\*?\./, '');
    if (name === bare || name.endsWith(`.${bare}`)) return undefined;
  }
  try {
    return new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    return undefined;
  }
}

function openPlain(host: string, port: number, sockets: Socket[]): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port });
    sockets.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A socket to the proxy: TLS for an https:// proxy. */
async function openSocket(proxy: URL, sockets: Socket[], ca: ProbeOptions['ca']): Promise<Socket> {
  const port = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  const socket = await openPlain(proxy.hostname, port, sockets);
  return proxy.protocol === 'https:' ? startTls(socket, proxy.hostname, sockets, ca) : socket;
}

function startTls(socket: Socket, servername: string, sockets: Socket[], ca: ProbeOptions['ca']): Promise<Socket> {
  return new Promise((resolve, reject) => {
    // An IP address is checked against the certificate all the same; SNI only carries names.
    const secure = tlsConnect({
      socket,
      ...(isIP(servername) === 0 ? { servername } : { host: servername }),
      ...(ca === undefined ? {} : { ca }),
    });
    sockets.push(secure);
    secure.once('secureConnect', () => resolve(secure));
    secure.once('error', reject);
  });
}

/** Asks the proxy for a tunnel; resolves to why it refused, or undefined when it opened one. */
async function connectTunnel(socket: Socket, host: string, port: number, proxy: URL): Promise<string | undefined> {
  const auth =
    proxy.username === ''
      ? ''
      : `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n`;
  socket.write(`CONNECT ${host}:${port} HTTP/1.1\r\nHost: ${host}:${port}\r\n${auth}\r\n`);
  const head = await readHead(socket);
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(head)?.[1];
  if (status === '200') return undefined;
  return `the proxy ${proxy.host} refused a tunnel to ${host}:${port} (${status ? `HTTP ${status}` : 'no HTTP answer'})`;
}

async function headStatus(socket: Socket, url: URL): Promise<number> {
  socket.write(
    `HEAD ${url.pathname || '/'} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: ralph-preflight\r\nConnection: close\r\n\r\n`,
  );
  const head = await readHead(socket);
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(head)?.[1];
  if (status === undefined) throw Object.assign(new Error('the server did not answer in HTTP'), { code: 'EPROTO' });
  return Number(status);
}

/** Reads up to the end of the HTTP head (at most 16 KiB), without consuming the socket past it. */
function readHead(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end !== -1 || text.length > 16 * 1024) {
        socket.off('data', onData);
        socket.pause();
        // What came after the head belongs to the tunnelled connection.
        if (end !== -1 && end + 4 < text.length) socket.unshift(Buffer.from(text.slice(end + 4), 'latin1'));
        resolve(text.slice(0, end === -1 ? text.length : end));
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('end', () => resolve(text));
  });
}

const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME|HOSTNAME|ERR_TLS/;

function describeFailure(error: unknown, url: URL, proxy: URL | undefined): Reach {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const host = (error as { hostname?: string }).hostname ?? url.hostname;
  const through = proxy ? ` (through the proxy ${proxy.host})` : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { ok: false, cause: 'dns', reason: `the name ${host} does not resolve (${code})` };
  if (CERTIFICATE_CODES.test(code))
    return { ok: false, cause: 'tls', reason: `the certificate of ${url.host} does not verify (${code})${through}` };
  if (code === 'ECONNREFUSED')
    return {
      ok: false,
      cause: 'connect',
      reason: `${proxy ? `the proxy ${proxy.host}` : url.host} refused the connection`,
    };
  return {
    ok: false,
    cause: 'connect',
    reason: `cannot connect to ${url.host}${through}: ${code || (error as Error).message}`,
  };
}
