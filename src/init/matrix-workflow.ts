import {
  ANSWER_LIST_ENV,
  EXACT_LIST_GUARD,
  INTEGRATE_JOBS,
  LISTS_JOB,
  MATRIX,
  MATRIX_HEADER,
  MAX_PARALLEL_INPUT,
} from './matrix-jobs.js';

/**
 * The matrix workflow (`ralph init --ci github --matrix`), made from the single-list workflow
 * (templates/github-workflow.yml) so the two never drift apart: its `agent` and `push` jobs become
 * one job per task list, and its pull-request job is replaced by the jobs that gather the loops'
 * endings, integrate their branches and push the integration branch. Every edit names the text it
 * expects; a template that no longer holds it fails loudly (a test renders it), never silently.
 */

/** Where `ralph init --ci github --matrix` writes the workflow, relative to the repository root. */
export const GITHUB_MATRIX_WORKFLOW = '.github/workflows/ralph-matrix.yml';

/** One edit of the single-list workflow: `text` must be found exactly `count` times. */
interface Edit {
  text: string | RegExp;
  by: string;
  count: number;
}

const EDITS: readonly Edit[] = [
  // The header, up to the workflow's name.
  { text: /^(?:#.*\n)+name: ralph\n/, by: `${MATRIX_HEADER}\nname: ralph-matrix\n`, count: 1 },
  { text: '    inputs:\n', by: `    inputs:\n${MAX_PARALLEL_INPUT}`, count: 1 },
  {
    text: 'Open or update a pull request when the loop ends COMPLETE',
    by: 'Open a pull request for the integration branch',
    count: 1,
  },
  { text: 'group: ralph-${{ github.ref }}', by: 'group: ralph-matrix-${{ github.ref }}', count: 1 },
  {
    text: 'jobs:\n  agent:\n    runs-on: ubuntu-latest\n',
    by: `jobs:\n${LISTS_JOB}  agent:\n    needs: lists\n    if: needs.lists.outputs.lists != '[]'\n${MATRIX}    runs-on: ubuntu-latest\n`,
    count: 1,
  },
  {
    text: "  push:\n    needs: agent\n    if: ${{ !cancelled() && needs.agent.outputs.branch != '' }}\n",
    by: `  push:\n    needs: [lists, agent]\n    if: \${{ !cancelled() && needs.lists.outputs.lists != '[]' }}\n${MATRIX}`,
    count: 1,
  },
  // Each leg reads its own list, whose branch defaults to ralph/<list>.
  { text: 'readFileSync("ralph/tasks.json", "utf8")', by: 'readFileSync(process.env.RALPH_TASKS, "utf8")', count: 2 },
  { text: '"ralph/" + (project || "loop")', by: '"ralph/" + process.env.LIST', count: 2 },
  { text: 'name: ralph-bundle\n', by: 'name: ralph-bundle-${{ matrix.list }}\n', count: 2 },
  { text: 'name: ralph-logs\n', by: 'name: ralph-logs-${{ matrix.list }}\n', count: 1 },
  // A run may not hold two artifacts of one name: every leg's report is its own.
  { text: 'name: ralph-report\n', by: 'name: ralph-report-${{ matrix.list }}\n', count: 1 },
  // Said in scripts, which take no expression of a list's name (a file name a branch may bring).
  {
    text: '[ralph-report (report.html)](${URL}), also in the ralph-logs artifact.',
    by: "[this list's report (report.html)](${URL}), also in this list's ralph-logs artifact.",
    count: 1,
  },
  // An environment value, never read by a shell: the list's name may stand in it.
  {
    text: 'RALPH_ANSWER_HINT: run this workflow again with the answer input\n',
    by: 'RALPH_ANSWER_HINT: run this workflow again with the answer input and answer-list ${{ matrix.list }}\n',
    count: 1,
  },
  // An answer is for the one loop that waits for it; the other legs go on as they are.
  {
    text: "        if: inputs.answer != ''\n",
    by: "        if: inputs.answer != '' && inputs.answer-list == matrix.list\n",
    count: 1,
  },
  // GitHub compares an if's strings ignoring case, and lists `api` and `API` may both exist.
  { text: '          ANSWER: ${{ inputs.answer }}\n', by: ANSWER_LIST_ENV, count: 1 },
  { text: '          ralph answer -- "$ANSWER"\n', by: EXACT_LIST_GUARD, count: 1 },
  // The single list's pull request gives way to the integration.
  { text: /\n {2}# Only with open-pr: the one job[\s\S]*$/, by: `\n${INTEGRATE_JOBS}`, count: 1 },
];

/** The matrix workflow, from the single-list workflow's text (placeholders still in it or filled). */
export function matrixWorkflow(single: string): string {
  let text = single;
  for (const edit of EDITS) {
    const found =
      typeof edit.text === 'string' ? text.split(edit.text).length - 1 : (text.match(global(edit.text)) ?? []).length;
    if (found !== edit.count)
      throw new Error(
        `templates/github-workflow.yml: expected ${edit.count} of ${String(edit.text).slice(0, 60)}, found ${found}`,
      );
    text = typeof edit.text === 'string' ? text.split(edit.text).join(edit.by) : text.replace(edit.text, () => edit.by);
  }
  return text;
}

function global(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
}
