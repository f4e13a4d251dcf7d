import type { IterationRow } from '../loop/port-data.js';
import type { Screen } from '../ui/screen.js';
import type { Outlet } from './outlet.js';

/** On GitHub Actions: the annotation, the job summary and the step outputs. */
export function gitHubOutlet(
  out: Pick<Screen, 'command' | 'error'>,
  env: NodeJS.ProcessEnv,
  rows: readonly IterationRow[],
): Outlet {
  return {
    name: 'GitHub job summary',
    async deliver({ report }) {
      // Loaded by the runs on Actions only: start-up stays short elsewhere.
      const { annotationFor, answerHint, publishToGitHub } = await import('../ui/github-actions.js');
      const firstLine = report.detail?.split('\n')[0];
      const annotation = annotationFor(report.reason, report.exitCode, firstLine, answerHint(env));
      // A command of ralph's own: column 0, no timestamp, and the runner obeying commands again.
      if (annotation) out.command(annotation);
      await publishToGitHub(env, report, rows).catch((failure: Error) =>
        out.error(`ralph: could not write to ${failure.message} — check that the runner's file is there and writable`),
      );
    },
  };
}
