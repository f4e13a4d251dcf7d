import type { RalphError } from '../errors.js';
import { recordOf } from '../loop/run-report.js';
import { endingOf, waitsForHuman } from '../loop/termination.js';
import type { Console, Screen } from '../ui/screen.js';
import type { RunListener } from './run-listener.js';

/**
 * On GitHub Actions: the annotation, the job summary and the step outputs of an ending; the
 * annotation and the outputs of a start refused before the lock (a bad command line too).
 */
export function gitHubOutlet(
  out: Pick<Console, 'command'> & Pick<Screen, 'error'>,
  env: NodeJS.ProcessEnv,
): RunListener {
  return {
    name: 'GitHub job summary',
    async deliver({ report, rows }) {
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
    async refused(error: RalphError) {
      const { annotationFor, answerHint, writeOutputs } = await import('../ui/github-actions.js');
      const record = recordOf(endingOf(error));
      const hint = answerHint(env);
      // A BLOCKED or DECIDE still waiting is answered the workflow's way there, not the terminal's.
      const waits = hint !== undefined && waitsForHuman(record.reason);
      const said = error.hint && !waits ? `${error.message} — ${error.hint}` : error.message;
      const annotation = annotationFor(record.reason, record.exitCode, said, hint);
      if (annotation) out.command(annotation);
      await writeOutputs(env, record.reason, record.exitCode);
    },
  };
}
