#!/usr/bin/env node
'use strict';
// ralph's executable. CommonJS, so that a start does without Node's ES module loader; it loads the
// bundle (dist/ralph.cjs, made by scripts/bundle.mjs) through V8's code cache (src/cli/compile-cache.ts).
const { join } = require('node:path');

require('../dist/compile-cache.cjs').useCompileCache(join(__dirname, '..', 'dist'), process.argv);
const { main } = require('../dist/ralph.cjs');

// Piped output is written asynchronously on macOS, and process.exit drops what is still queued: exit
// once stdout and stderr have written theirs (a zero-length write calls back after the writes before
// it), or after 10 s of a reader that does not read.
const written = (stream) => new Promise((resolve) => stream.write('', resolve));

// As Node ends a top-level await that never settles: a run that stops without an ending is no success.
process.exitCode = 13;
main(process.argv).then(
  async (code) => {
    process.exitCode = code;
    await Promise.race([
      Promise.all([written(process.stdout), written(process.stderr)]),
      new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
    ]);
    process.exit();
  },
  (error) => {
    // main() turns every failure into an ending; one that escapes it is a bug in ralph.
    process.stderr.write(`ralph: internal error: ${error?.stack ?? error}\n`);
    process.exit(70);
  },
);
