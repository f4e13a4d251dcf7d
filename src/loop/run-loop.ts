import { countStories, openStories, type TaskList } from '../domain/tasks.js';
import { emptyCounts } from '../domain/keyed-counts.js';
import { checkAgentNumbers } from './agent-numbers.js';
import { approvedIds, startingUnconfirmed } from './approvals.js';
import { INITIAL_COUNTERS } from './judge-inputs.js';
import { judgeIteration, type Verdict } from './judge.js';
import { heldRuling } from './limit-ruling.js';
import { checkGates, countReview } from './iteration-checks.js';
import { carryOver, policyOf, type LoopResult, type LoopSettings, type LoopState } from './loop-state.js';
import { chooseMode } from './mode.js';
import { observeIteration } from './observe.js';
import type { LoopPorts } from './ports.js';
import type { AgentRun } from './port-data.js';
import { readPosition } from './progress.js';
import { promptFor } from './prompt.js';
import { recordEnd, recordStart } from './record.js';
import type { Termination } from './termination.js';

/**
 * The loop: one fresh agent per iteration until the task list is done, the agent asks for a
 * human, no commit comes for too long, or a budget runs out.
 */
export async function runLoop(
  settings: LoopSettings,
  ports: LoopPorts,
  tasks: TaskList,
  unconfirmed: readonly string[] = [],
): Promise<LoopResult> {
  // The budget is monotonic: a wall clock stepped forward must not end it early, nor one stepped back extend it.
  const budgetEnd = ports.clock.monotonic() + settings.maxRuntimeMs;
  const deadline = () => wallDeadline(ports.clock, budgetEnd);
  const state = await startingState(tasks, unconfirmed, ports);
  const result = (termination: Termination): LoopResult => ({
    termination,
    iterations: state.started,
    stuckIterations: state.stuckIterations,
    stories: countStories(state.tasks, policyOf(settings, state)),
    costUsd: state.counters.costUsd,
    repetitions: state.repetitions,
  });

  if (openStories(tasks, policyOf(settings, state)).length === 0) {
    // Nothing left to do: only the project's own checks can still say otherwise.
    const verdict = await ports.gates?.check({
      iteration: settings.firstIteration,
      trigger: 'start',
      deadline: deadline(),
    });
    if (!verdict || verdict.passed) return result({ reason: 'complete' });
    if (verdict.interrupted) return result({ reason: 'interrupted', signal: ports.interrupts.received() ?? 'SIGINT' });
    state.feedback = [{ kind: 'gates_blocked', event: verdict.event }];
  }
  // Two counts: `state.started` numbers the logs (from settings.firstIteration, across resumes);
  // `counted` is what --max-iterations limits (a usage-limited iteration is not counted, nor one whose
  // client could not reach its API while the network was down).
  let counted = 0;
  while (counted < settings.maxIterations) {
    const signal = ports.interrupts.received();
    if (signal) return result({ reason: 'interrupted', signal });
    if (ports.clock.monotonic() >= budgetEnd) return result({ reason: 'max_runtime', limitMs: settings.maxRuntimeMs });
    const held = await waitOutAccountLimit(deadline(), settings, ports);
    if (held === 'waited') continue;
    if (held) return result(held);

    const verdict = await runIteration(
      settings.firstIteration + state.started,
      counted,
      deadline,
      settings,
      ports,
      state,
    );
    state.started++;
    // An interrupt that came after the agent ended outranks every ending but a finished list.
    const late = ports.interrupts.received();
    if (late && verdict.termination?.reason !== 'complete') return result({ reason: 'interrupted', signal: late });
    if (verdict.termination) return result(verdict.termination);
    if (verdict.outcome !== 'usage_limit' && verdict.wait?.why !== 'network') counted++;
    if (verdict.wait) await waitOutUsageLimit(verdict.wait, ports);
  }
  return result({ reason: 'max_iterations' });
}

/** The loop's state before its first iteration. */
async function startingState(tasks: TaskList, unconfirmed: readonly string[], ports: LoopPorts): Promise<LoopState> {
  // The list as the run found it is the last that kept the rules.
  return {
    tasks,
    keptRules: tasks,
    accepted: await readPosition(ports.git),
    unconfirmed: startingUnconfirmed(unconfirmed, tasks),
    counters: INITIAL_COUNTERS,
    stuckIterations: 0,
    feedback: [],
    repetitions: emptyCounts(),
    started: 0,
    decideDelivered: false,
  };
}

/** The end of the monotonic budget, as a wall-clock time read now (what the agent, the gates and waits compare). */
function wallDeadline(clock: LoopPorts['clock'], budgetEnd: number): number {
  return clock.now() + (budgetEnd - clock.monotonic());
}

/**
 * Another loop of a parallel run met the account's usage limit: wait for its reset (or stop with it)
 * without a call of our own. 'waited' sends the loop back to its checks; undefined: no limit held.
 */
async function waitOutAccountLimit(
  deadline: number,
  settings: LoopSettings,
  ports: LoopPorts,
): Promise<Termination | 'waited' | undefined> {
  const held = ports.account?.held(ports.clock.now());
  if (!held) return undefined;
  const ruling = heldRuling(held, deadline, settings);
  if ('termination' in ruling) return ruling.termination;
  await waitOutUsageLimit(ruling.wait, ports);
  return 'waited';
}

/** Sleeps until a usage limit lifts (or the network is tried again); an interrupt ends the sleep early. */
async function waitOutUsageLimit(wait: NonNullable<Verdict['wait']>, ports: LoopPorts): Promise<void> {
  const endDisplay = ports.report.usageLimitWait(wait);
  const waitMs = wait.until - ports.clock.now();
  if (waitMs > 0) await ports.clock.sleep(waitMs, ports.interrupts.graceful);
  endDisplay();
}

/** One iteration: prompt → agent → observe → judge → record. */
async function runIteration(
  iteration: number,
  counted: number,
  deadline: () => number,
  settings: LoopSettings,
  ports: LoopPorts,
  state: LoopState,
): Promise<Verdict> {
  const stories = () => countStories(state.tasks, policyOf(settings, state));
  const choice = chooseMode(state.tasks, policyOf(settings, state));
  const atStart = stories();
  // What the iteration adds to the task list's pace (the forecast's measure) is taken from here.
  const pace = { startedAt: ports.clock.monotonic(), storiesBefore: atStart.complete, firstOfRun: state.started === 0 };
  const { stuck } = state.counters;
  const approved = approvedIds(state.tasks);
  await recordStart({ iteration, counted, choice, stuckCount: stuck, stories: atStart, approved }, settings, ports);

  const prompt = await promptFor(iteration, choice, settings, ports.files, state);
  // Where the agent starts from, read last: a commit put on the branch between iterations (while
  // the loop waited for a usage limit, say) is no move of this iteration's, and its record says so.
  const before = await readPosition(ports.git);
  const { run, endedAt, durationMs } = await runAgent({ iteration, prompt, deadline: deadline() }, ports);

  const { accepted, commit, ...observed } = await observeIteration(state, choice, settings.review, ports);
  Object.assign(
    state,
    { accepted, unconfirmed: observed.unconfirmed },
    observed.tasks.ok ? { tasks: observed.tasks.tasks } : {},
    observed.tasks.ok && observed.ruleBroken === undefined ? { keptRules: observed.tasks.tasks } : {},
  );
  const claim = { run, ...observed };
  const gates = await checkGates({ iteration, deadline: deadline() }, claim, observed.committed, settings, ports);
  const reviewCap =
    choice.mode === 'review' ? await countReview(choice.story.id, state.tasks, settings, ports) : undefined;

  const checked = { ...(gates ? { gates } : {}), ...(reviewCap ? { reviewCap } : {}) };
  const facts = { ...claim, now: ports.clock.now(), deadline: deadline(), ...checked };
  const verdict = judgeIteration(facts, state.counters, settings);
  carryOver(state, verdict, run);

  const end = { iteration, choice, run, durationMs, endedAt, committed: observed.committed, before, verdict, pace };
  await recordEnd({ ...end, stories: stories(), ...(commit ? { commit } : {}) }, ports);
  return verdict;
}

/**
 * Runs the agent: its run with only the numbers that are measurements (warned about otherwise), when it
 * ended by the wall clock, and how long it took by the monotonic one.
 */
async function runAgent(
  request: Parameters<LoopPorts['agent']['run']>[0],
  ports: LoopPorts,
): Promise<{ run: AgentRun; endedAt: number; durationMs: number }> {
  const startedAt = ports.clock.monotonic();
  const reported = await ports.agent.run(request);
  const endedAt = ports.clock.now();
  const durationMs = ports.clock.monotonic() - startedAt;
  const { run, warnings } = checkAgentNumbers(reported, endedAt);
  for (const warning of warnings) ports.report.warning(warning);
  return { run, endedAt, durationMs };
}
