import type { Turn } from './turns.js';
import { startStandIn, type SeeingStandIn as StandIn } from './stand-in-server.js';

/**
 * A stand-in for Amp's own server (AMP_URL) on 127.0.0.1. Amp sends no model request of its own:
 * every call goes to its server's JSON-RPC (`POST /api/internal?<method>`, getUserInfo first),
 * whose model traffic is not documented, so only what comes before it is played: the server
 * refusing the key (401), which the real client turns into its own auth message and exit 1.
 */
export function startAmpStandIn(): Promise<StandIn> {
  const script: readonly Turn[] = [{ fault: 'auth' }];
  return startStandIn(script, (req, res, _body, next) => {
    next();
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'Unauthorized', message: `stand-in: ${req.url ?? ''} refused` }));
  });
}
