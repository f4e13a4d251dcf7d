/** The port the box's clients find the proxy at, on the box's own loopback (a network of its own). */
export const BRIDGE_PORT = 3128;

/**
 * The box's first process in allow-list mode (run by the same Node as ralph, `node -e`): it listens
 * on the box's loopback, passes each connection to the proxy's socket outside, and once listening
 * starts the command, ending as it ends. Without it nothing in the box could reach the proxy: the
 * box's network has nothing but its loopback.
 */
const BRIDGE = `
const net = require('node:net'), { spawn } = require('node:child_process');
const [socket, port, file, ...args] = process.argv.slice(1);
const server = net.createServer((inside) => {
  const outside = net.connect(socket);
  inside.pipe(outside); outside.pipe(inside);
  inside.on('error', () => outside.destroy()); outside.on('error', () => inside.destroy());
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(file, args, { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => { console.error('bwrap: ' + file + ': ' + error.message); process.exit(127); });
  child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
});`;

/** The command, started by the bridge: `node -e BRIDGE SOCKET PORT FILE ARGS…`. */
export function throughBridge(
  socket: string,
  command: { file: string; args: string[] },
): { file: string; args: string[] } {
  return { file: process.execPath, args: ['-e', BRIDGE, socket, String(BRIDGE_PORT), command.file, ...command.args] };
}

/** The environment that sends every client in the box through the bridge (none may go around it). */
export const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy', 'ALL_PROXY', 'all_proxy'];
