#!/usr/bin/env node
import { main } from '../dist/ralph.js';

process.exitCode = await main(process.argv);
// Piped output is written asynchronously on macOS, and process.exit drops what is still queued: exit
// once stdout and stderr have written theirs (a zero-length write calls back after the writes before
// it), or after 10 s of a reader that does not read.
const written = (stream) => new Promise((resolve) => stream.write('', resolve));
await Promise.race([
  Promise.all([written(process.stdout), written(process.stderr)]),
  new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
]);
process.exit();
