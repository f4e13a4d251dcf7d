import { z } from 'zod';
import { describeIssue } from './schema-errors.js';

const storySchema = z.looseObject({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  title: z.string().default(''),
  description: z.string().optional(),
  acceptanceCriteria: z.array(z.string()).optional(),
  priority: z.number().optional(),
  passes: z.boolean().default(false),
  notes: z.string().optional(),
  // The review cycle's fields; the agent's reviewCount is informational (ralph counts itself).
  reviewStatus: z.enum(['pending', 'changes_requested', 'approved']).optional(),
  reviewCount: z.number().optional(),
  reviewFeedback: z.string().optional(),
});

const taskListSchema = z
  .looseObject({
    project: z.string().optional(),
    branchName: z.string().optional(),
    description: z.string().optional(),
    // `ralph init` and `ralph archive` write an example list: `ralph run` refuses it until it is replaced.
    example: z.boolean().optional(),
    stories: z.array(storySchema).optional(),
    // The prd.json shape users already have names the same list `userStories`.
    userStories: z.array(storySchema).optional(),
  })
  .refine((value) => value.stories !== undefined || value.userStories !== undefined, {
    message: 'needs a "stories" array (or "userStories")',
  })
  .superRefine((value, context) => {
    const key = value.stories ? 'stories' : 'userStories';
    const stories = value.stories ?? value.userStories ?? [];
    if (stories.length === 0) context.addIssue({ code: 'custom', path: [key], message: 'has no stories: add at least one' });
    // Review counts, modes and the Stop hook all know a story by its id.
    const seen = new Set<string>();
    stories.forEach((story, index) => {
      if (seen.has(story.id)) context.addIssue({ code: 'custom', path: [key, index, 'id'], message: `"${story.id}" is used by two stories; ids must be unique` });
      seen.add(story.id);
    });
  });

export type Story = z.infer<typeof storySchema>;

/** The task list, whichever key its stories came under. */
export interface TaskList {
  project?: string;
  branchName?: string;
  description?: string;
  /** The task list is still the example `ralph init` wrote. */
  example?: boolean;
  stories: Story[];
}

/** Why a tasks.json text is not a task list: one line, naming the place. */
export type TasksParse = { ok: true; tasks: TaskList } | { ok: false; error: string };

/** Parses the text of tasks.json without throwing. */
export function parseTasks(text: string): TasksParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${(error as Error).message})` };
  }
  const result = taskListSchema.safeParse(json);
  if (!result.success) {
    const first = result.error.issues[0];
    return { ok: false, error: first ? describeIssue(first) : 'not a task list' };
  }
  const { project, branchName, description, example, stories, userStories } = result.data;
  return { ok: true, tasks: { project, branchName, description, ...(example ? { example } : {}), stories: stories ?? userStories ?? [] } };
}

/**
 * Whether stories must also be approved by a review iteration to count as complete, and the
 * approvals no review iteration made (they count only once a review confirms them).
 */
export type ReviewPolicy = { review: boolean; unconfirmed?: ReadonlySet<string> };

/** Stories done and in all. */
export function countStories(tasks: TaskList, policy: ReviewPolicy): { complete: number; total: number } {
  return { complete: tasks.stories.filter((story) => isStoryComplete(story, policy)).length, total: tasks.stories.length };
}

/** A story is complete when it passes — and, with the review cycle on, a review approved it. */
export function isStoryComplete(story: Story, { review, unconfirmed }: ReviewPolicy): boolean {
  return story.passes && (!review || (story.reviewStatus === 'approved' && !unconfirmed?.has(story.id)));
}

/** Stories not complete yet, highest priority (lowest number) first. */
export function openStories(tasks: TaskList, policy: ReviewPolicy): Story[] {
  return byPriority(tasks.stories.filter((story) => !isStoryComplete(story, policy)));
}

/** Stories in the order they are worked on: lowest priority number first, list order on ties. */
export function byPriority(stories: readonly Story[]): Story[] {
  return [...stories].sort((a, b) => (a.priority ?? Infinity) - (b.priority ?? Infinity));
}
