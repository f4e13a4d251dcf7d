import { mergeGitignore } from '../files/gitignore.js';
import { LOOP_OWNED_PATHS } from '../files/paths.js';
import { readTemplate } from '../templates.js';
import type { Merged } from '../files/merged.js';
import type { DetectedGate } from '../gates/detect-gates.js';
import { GITHUB_WORKFLOW, type CiProvider } from './ci-providers.js';
import type { RalphShSetup } from './import-ralph-sh.js';
import { defaultInstallSpec, installArgument } from './install-spec.js';
import { GITHUB_MATRIX_WORKFLOW, matrixWorkflow } from './matrix-workflow.js';
import type { InitAgent } from './agent-setup.js';
import { setAgentKind } from './config-agent.js';
import { withAgent } from './workflow-agent.js';

/** One thing `ralph init` sets up; paths are relative to the repository root, with `/`. */
export type PlannedItem =
  /**
   * A file created when missing. An existing one is replaced only by the user's word: `--force` for
   * ralph's own files (`replacedBy: 'force'`: the workflow, the schema copy), `--reset <file>` for
   * the files the user writes in (`replacedBy: 'reset'`: the task list, the PRD, the notes, the
   * prompt, the config), after a backup.
   */
  | {
      kind: 'file';
      path: string;
      content: () => Promise<string>;
      replacedBy: 'force' | 'reset';
      /** A file of the user's that --force edits instead: only what the other flags name (`--agent`: `agent.kind`). */
      amend?: (existing: string) => Merged;
    }
  /** A folder created when missing. */
  | { kind: 'directory'; path: string }
  /** A file the user shares with ralph: entries are added, the user's are kept, with or without --force. */
  | { kind: 'merge'; path: string; merge: (existing: string | undefined) => Merged };

/** Everything `ralph init` sets up, in the order it is done and reported. */
export function planInit(options: {
  ci?: CiProvider;
  gates: readonly DetectedGate[];
  from?: RalphShSetup;
  install?: string;
  /** With ci: the matrix workflow (one job per task list, then integration) instead of the single-list one. */
  matrix?: boolean;
  /** The agent client set up, in its own terms (its hook, its workflow's install and key). */
  agent: InitAgent;
  /** `--agent` was given: the config names the kind. */
  writeKind?: boolean;
}): PlannedItem[] {
  const { agent } = options;
  const kind = options.writeKind ? agent.kind : undefined;
  const { from } = options;
  const items: PlannedItem[] = [
    fromTemplate('ralph/prompt.md', 'prompt.md'),
    // Imported from ralph.sh: the old prompt beside the new one, the task list and notes as they were.
    ...(from?.prompt ? [fromText('ralph/prompt.legacy.md', from.prompt.text)] : []),
    fromTemplate('ralph/prd.md', 'prd.md'),
    from ? fromText('ralph/tasks.json', from.tasks) : fromTemplate('ralph/tasks.json', 'tasks.json'),
    from?.progress !== undefined
      ? fromText('ralph/progress.txt', from.progress)
      : fromTemplate('ralph/progress.txt', 'progress.txt'),
    {
      kind: 'file',
      path: 'ralph/config.json',
      content: () => Promise.resolve(initialConfig(options.gates, kind)),
      replacedBy: 'reset',
      ...(kind === undefined ? {} : { amend: (existing: string) => setAgentKind(existing, kind) }),
    },
    // A copy beside the config, so editors check it offline whatever way ralph was installed: ralph's own.
    fromTemplate('ralph/config.schema.json', 'config.schema.json', 'force'),
    { kind: 'directory', path: 'ralph/logs/' },
    // The same list `ralph run` puts in .git/info/exclude, so the two never disagree.
    { kind: 'merge', path: '.gitignore', merge: (existing) => mergeGitignore(existing, LOOP_OWNED_PATHS) },
    // A client with a Stop hook runs `ralph hook stop` whenever the agent wants to stop; the user's settings are kept.
    ...(agent.stopHook ? [{ kind: 'merge' as const, path: agent.stopHook.path, merge: agent.stopHook.merge }] : []),
  ];
  if (options.ci === 'github') {
    const install = installArgument(options.install ?? defaultInstallSpec());
    items.push({
      kind: 'file',
      path: options.matrix ? GITHUB_MATRIX_WORKFLOW : GITHUB_WORKFLOW,
      replacedBy: 'force',
      content: async () => {
        const single = await readTemplate('github-workflow.yml');
        // The matrix workflow is the single-list one, reshaped: it installs ralph in more than one job.
        return withAgent(options.matrix ? matrixWorkflow(single) : single, agent).replaceAll(
          '__RALPH_INSTALL__',
          () => install,
        );
      },
    });
  }
  return items;
}

/** ralph/config.json as init writes it: the schema for editors, the agent named, the limits, the gates it found. */
function initialConfig(gates: readonly DetectedGate[], kind: string | undefined): string {
  const agent = kind === undefined ? {} : { agent: { kind } };
  const config = { $schema: './config.schema.json', ...agent, maxIterations: 10, maxStuck: 3, gates };
  return `${JSON.stringify(config, null, 2)}\n`;
}

function fromText(path: string, text: string): PlannedItem {
  return { kind: 'file', path, content: () => Promise.resolve(text), replacedBy: 'reset' };
}

function fromTemplate(path: string, template: string, replacedBy: 'force' | 'reset' = 'reset'): PlannedItem {
  return { kind: 'file', path, content: () => readTemplate(template), replacedBy };
}
