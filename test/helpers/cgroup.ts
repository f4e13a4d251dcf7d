import { execFileSync } from 'node:child_process';
import { findOwnCgroup } from '../../src/process/cgroup.js';

/** Where this process lives in cgroup v2, as ralph finds it. */
export const cgroupHome = findOwnCgroup();

/** Whether ralph could make a cgroup here (root on these machines; not in a read-only container). */
export const cgroupWritable = (() => {
  if ('why' in cgroupHome) return false;
  try {
    execFileSync('sh', ['-c', 'mkdir "$0/ralph-probe-$$" && rmdir "$0/ralph-probe-$$"', cgroupHome.dir]);
    return true;
  } catch {
    return false;
  }
})();
