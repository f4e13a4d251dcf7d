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
});

const taskListSchema = z
  .looseObject({
    project: z.string().optional(),
    branchName: z.string().optional(),
    description: z.string().optional(),
    stories: z.array(storySchema).optional(),
    // The prd.json shape users already have names the same list `userStories`.
    userStories: z.array(storySchema).optional(),
  })
  .refine((value) => value.stories !== undefined || value.userStories !== undefined, {
    message: 'needs a "stories" array (or "userStories")',
  });

export type Story = z.infer<typeof storySchema>;

/** The task list, whichever key its stories came under. */
export interface TaskList {
  project?: string;
  branchName?: string;
  description?: string;
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
  const { project, branchName, description, stories, userStories } = result.data;
  return { ok: true, tasks: { project, branchName, description, stories: stories ?? userStories ?? [] } };
}

/** Stories done and in all. */
export function countStories(tasks: TaskList): { complete: number; total: number } {
  return { complete: tasks.stories.filter(isStoryComplete).length, total: tasks.stories.length };
}

/** A story is complete when it passes. */
export function isStoryComplete(story: Story): boolean {
  return story.passes;
}

/** Stories still to do, highest priority (lowest number) first. */
export function openStories(tasks: TaskList): Story[] {
  return tasks.stories
    .filter((story) => !isStoryComplete(story))
    .sort((a, b) => (a.priority ?? Infinity) - (b.priority ?? Infinity));
}
