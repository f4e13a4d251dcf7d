#!/usr/bin/env node
// Fake `claude` for the stream-json scenario: prints about BENCH_BYTES bytes of realistic
// stream-json events as fast as the reader takes them (it waits for 'drain', never buffers).
import { once } from 'node:events';
import { planStream } from '../lib/stream-json-events.mjs';

// ralph asks a `claude` its version before the run: an answer, not a call.
if (process.argv[2] === '--version') {
  process.stdout.write('bench agent\n');
  process.exit(0);
}
const target = Number(process.env.BENCH_BYTES);
if (!Number.isFinite(target) || target <= 0) {
  process.stderr.write('stream-json agent: set BENCH_BYTES to the number of bytes to print\n');
  process.exit(64);
}
const { head, block, repeats, tail } = planStream(target);
// A reader that goes away early (a killed loop, `| head`) ends the agent quietly.
process.stdout.on('error', () => process.exit(0));

/** @param {Buffer} chunk */
async function write(chunk) {
  if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
}

await write(head);
for (let i = 0; i < repeats; i++) await write(block);
await write(tail);
