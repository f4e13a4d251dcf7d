import type { RunSettings } from '../config/run-options.js';
import type { RalphPaths } from '../files/paths.js';
import { eventsFileOutlet } from '../outlets/events-file-outlet.js';
import { gitHubOutlet } from '../outlets/github-outlet.js';
import type { LoopPlace } from '../outlets/notification.js';
import { notificationsListener } from '../outlets/notify-outlet.js';
import { recordOutlet } from '../outlets/record-outlet.js';
import { reportOutlet } from '../outlets/report-outlet.js';
import type { RunListener } from '../outlets/run-listener.js';
import { screenListener } from '../outlets/screen-listener.js';
import { summaryCsvListener } from '../outlets/summary-csv-listener.js';
import type { ChannelEvents } from '../parallel/loop-channel.js';
import { monotonicMs } from '../process/monotonic-clock.js';
import { createReporter } from '../ui/reporter.js';
import type { Console, Screen } from '../ui/screen.js';

/** What the table reads of a run whose settings resolved; undefined for a start refused before. */
export interface PlannedRun {
  settings: RunSettings;
  /** Where ralph was started: a path the person named on the command line is relative to it. */
  cwd: string;
  /** The repository: a notification's `cmd:` program inside it is refused (a worktree's is its repository's). */
  root: string;
  /** How notifications name the loop; the repository's own checkout when absent. */
  place?: LoopPlace;
  /** When the run started, by the monotonic clock (each iteration's header shows the time since). */
  runStartedAt: number;
  /** The loop's own files (a worktree's, in a worktree): summary.csv among them. */
  paths: Pick<RalphPaths, 'root' | 'summaryCsv'>;
}

/** Where the run is heard: its terminal, its environment, its supervisor. */
export interface ListenerContext {
  out: Console & Pick<Screen, 'error'>;
  env: NodeJS.ProcessEnv;
  /** GitHub Actions is listening. */
  github: boolean;
  /** The channel to the supervisor, when this loop is one of a parallel run. */
  channel?: { events: ChannelEvents };
}

/** One row: the listener a run has, or undefined when its settings and context do not ask for it. */
type ListenerRow = (run: PlannedRun | undefined, context: ListenerContext) => RunListener | undefined;

/**
 * Which listeners a run has, in the order they hear each event and the ending: summary.csv first
 * (an iteration's row is on disk before anything else hears of the iteration), last-run.json (the
 * report reads it), then the screen and its summary, the GitHub job summary, the report, the
 * parallel channel, the notifications (after every other outlet wrote its file). A new outlet is
 * one file in src/outlets/ and one row here.
 */
const LISTENERS: readonly ListenerRow[] = [
  (run) => run && summaryCsvListener(run.paths.root, run.paths.summaryCsv),
  (_run, { out }) => recordOutlet(out),
  (run, { out, github }) =>
    screenListener(
      out,
      run &&
        createReporter(out, {
          maxStuck: run.settings.maxStuck,
          runStartedAt: run.runStartedAt,
          elapsed: monotonicMs,
          github,
        }),
    ),
  (_run, { out, env, github }) => (github ? gitHubOutlet(out, env) : undefined),
  (run) => (run?.settings.report ? reportOutlet(!run.settings.skipReview) : undefined),
  (run) => (run?.settings.eventsFile ? eventsFileOutlet(run.settings.eventsFile, run.cwd) : undefined),
  (_run, { channel }) => (channel ? { name: 'parallel channel', events: channel.events } : undefined),
  (run, { env, out }) =>
    run &&
    notificationsListener(run.settings, {
      root: run.root,
      ...(run.place ? { place: run.place } : {}),
      env,
      warn: (line) => out.error(line),
    }),
];

/** The listeners of a run (undefined: a start refused before its settings resolved). */
export function listenersFor(run: PlannedRun | undefined, context: ListenerContext): RunListener[] {
  return LISTENERS.flatMap((row) => row(run, context) ?? []);
}
