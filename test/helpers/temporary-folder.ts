// The suite's temporary folders, in one folder of its own that the run removes at its end. A run
// makes thousands (a repository for each end-to-end test), and many tests leave theirs behind on
// purpose, for the next assertion or on failure: left in the system's temporary folder they piled
// up by the tens of thousands, run after run. Set as TMPDIR before any worker starts, so that the
// tests, the ralph they spawn and the agents and git it spawns all write here.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const before = process.env.TMPDIR;
  // On macOS under /tmp: the run lock's socket lives in the temporary folder there, and its path
  // may not pass 104 bytes, which a folder below macOS's long TMPDIR (/var/folders/…/T/) would.
  const folder = mkdtempSync(join(process.platform === 'darwin' ? '/tmp' : tmpdir(), 'ralph-tests-'));
  // As the system's own temporary folder is: the tests that run ralph as another user (a systemd
  // user manager's scopes) reach their repositories through it.
  chmodSync(folder, 0o1777);
  process.env.TMPDIR = folder;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    try {
      rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      // A test that failed half-way may leave what cannot be removed (an immutable file): say where.
      console.warn(`the tests' temporary folder ${folder} was not removed: ${(error as Error).message}`);
    }
  };
}
