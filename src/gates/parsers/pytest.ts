import { MAX_DETAILS } from '../types.js';
import type { Emit, LineParser } from './line-parser.js';

/** `____ test_create_user ____`, `____ TestValidation.test_x ____`, `____ ERROR collecting tests/x.py ____`. */
const SECTION = /^_{3,} (.+?) _{3,}$/;
/** `E       assert 500 == 201` */
const E_LINE = /^E {2,}(\S.*)$/;
/** Short test summary: `FAILED tests/x.py::test_y - message`, `ERROR tests/x.py`. */
const SUMMARY = /^(FAILED|ERROR) (\S+?)(?: - (.*))?$/;
/** How many sections' first `E` lines are remembered for the summary lines that follow them. */
const REMEMBERED = 2 * MAX_DETAILS;

/**
 * pytest: the short summary's `FAILED`/`ERROR` lines, each with the first `E` line of its failure
 * section (the summary truncates messages to the terminal width); the sections alone when there
 * is no summary.
 */
export function pytestParser(emit: Emit): LineParser {
  const firstErrors = new Map<string, string>();
  let section: string | undefined;
  let sawSummary = false;
  return {
    line(text) {
      const header = SECTION.exec(text)?.[1];
      if (header !== undefined) {
        section = header;
        return;
      }
      const error = E_LINE.exec(text)?.[1];
      if (error !== undefined && section !== undefined && !firstErrors.has(section) && firstErrors.size < REMEMBERED) {
        firstErrors.set(section, error.trim());
        return;
      }
      const summary = SUMMARY.exec(text);
      if (!summary) return;
      sawSummary = true;
      const nodeId = summary[2] ?? '';
      const message = firstErrors.get(sectionName(nodeId, summary[1] === 'ERROR')) ?? summary[3];
      emit(message ? `${nodeId}: ${message}` : nodeId);
    },
    end() {
      if (sawSummary) return;
      for (const [name, error] of firstErrors) emit(`${name}: ${error}`);
    },
  };
}

/** The section header pytest writes for a node id: `tests/x.py::TestA::test_b` → `TestA.test_b`. */
function sectionName(nodeId: string, collectionError: boolean): string {
  if (collectionError && !nodeId.includes('::')) return `ERROR collecting ${nodeId}`;
  return nodeId.split('::').slice(1).join('.');
}
