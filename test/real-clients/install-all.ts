// Every real client installed once, before the test files start: two files of one client (its
// version checks and its loops) run side by side, and two `npm install`s into one prefix let one
// file start the binary while the other still writes it (spawn ETXTBSY, a skip that was no fault
// of the client's). A client that will not install is left to each file's installOrSkip to say.
import { AGENT_KINDS } from '../../src/agent/dialects.js';
import { installClient } from './install-client.js';

export default async function installAll(): Promise<void> {
  for (const kind of AGENT_KINDS) {
    if (process.env[`RALPH_REAL_${kind.toUpperCase()}`]) continue;
    await installClient(kind).catch(() => undefined);
  }
}
