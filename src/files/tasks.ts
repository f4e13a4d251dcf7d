import { z } from 'zod';
import { describeIssue } from './schema-errors.js';
import { parseJson } from './json-text.js';
import type { TasksParse } from '../domain/tasks.js';

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
    // Lists under ralph/lists/ that must end COMPLETE before this one starts (src/lists/task-lists.ts).
    dependsOn: z.array(z.string().min(1)).optional(),
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
    if (stories.length === 0)
      context.addIssue({ code: 'custom', path: [key], message: 'has no stories: add at least one' });
    // Review counts, modes and the Stop hook all know a story by its id.
    const seen = new Set<string>();
    stories.forEach((story, index) => {
      if (seen.has(story.id))
        context.addIssue({
          code: 'custom',
          path: [key, index, 'id'],
          message: `"${story.id}" is used by two stories; ids must be unique`,
        });
      seen.add(story.id);
    });
  });

/** Parses the text of tasks.json without throwing. */
export function parseTasks(text: string): TasksParse {
  const json = parseJson(text);
  if (!json.ok) return { ok: false, error: `not valid JSON (${json.error})` };
  const result = taskListSchema.safeParse(json.value);
  if (!result.success) {
    const first = result.error.issues[0];
    return { ok: false, error: first ? describeIssue(first) : 'not a task list' };
  }
  const { project, branchName, description, example, dependsOn, stories, userStories } = result.data;
  return {
    ok: true,
    tasks: {
      project,
      branchName,
      description,
      ...(example ? { example } : {}),
      ...(dependsOn ? { dependsOn } : {}),
      stories: stories ?? userStories ?? [],
    },
  };
}
