import { readListRecord, unrecordedApprovals, type ListRecord } from './list-record.js';
import type { RecordPaths } from './record-paths.js';
import { olderDoubts } from './run-state.js';

/**
 * The approvals of the list in `key` that do not count, as status, the dry run and the report show
 * it: those the run state holds unconfirmed (an older ralph's too, until a run takes it over), and
 * those ralph's record of the list does not hold.
 */
export async function doubtedApprovals(
  records: RecordPaths,
  key: string,
  tasks: { stories: ReadonlyArray<{ id: string; reviewStatus?: string }> },
  unconfirmed: readonly string[] = [],
): Promise<Set<string>> {
  const approved = tasks.stories.filter((story) => story.reviewStatus === 'approved').map((story) => story.id);
  const record: ListRecord = await readListRecord(records).catch(() => ({ lists: {} }));
  const older = await olderDoubts(records);
  return new Set([...unconfirmed, ...older, ...unrecordedApprovals(record, key, approved)]);
}
