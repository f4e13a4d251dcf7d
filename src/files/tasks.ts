import { describeIssue } from './schema-errors.js';
import { parseJson } from './json-text.js';
import { lazySchema, type ZodApi } from './lazy-zod.js';
import type { TasksParse } from '../domain/tasks.js';

type Zod = ZodApi;

function storySchema(zod: Zod) {
  return zod.looseObject({
    id: zod.pipe(
      zod.union([zod.string().check(zod.minLength(1, 'is empty: every story needs an id')), zod.number()], {
        error: (issue) =>
          issue.input === undefined ? 'is missing: every story needs an id' : 'expected a non-empty string or a number',
      }),
      zod.transform(String),
    ),
    title: zod._default(zod.string(), ''),
    description: zod.optional(zod.string()),
    acceptanceCriteria: zod.optional(zod.array(zod.string())),
    priority: zod.optional(zod.number()),
    passes: zod._default(zod.boolean(), false),
    notes: zod.optional(zod.string()),
    // The review cycle's fields; the agent's reviewCount is informational (ralph counts itself).
    reviewStatus: zod.optional(zod.enum(['pending', 'changes_requested', 'approved'])),
    reviewCount: zod.optional(zod.number()),
    reviewFeedback: zod.optional(zod.string()),
  });
}

/** The task list's schema, built on first use: zod is loaded by the commands that read a task list. */
const taskListSchema = lazySchema((zod) => {
  // One story schema for both names of the list: zod builds each schema at some cost, at every start.
  const story = storySchema(zod);
  return zod
    .looseObject({
      project: zod.optional(zod.string()),
      branchName: zod.optional(zod.string()),
      description: zod.optional(zod.string()),
      // `ralph init` and `ralph archive` write an example list: `ralph run` refuses it until it is replaced.
      example: zod.optional(zod.boolean()),
      // Lists under ralph/lists/ that must end COMPLETE before this one starts (src/lists/task-lists.ts).
      dependsOn: zod.optional(zod.array(zod.string().check(zod.minLength(1)))),
      stories: zod.optional(zod.array(story)),
      // The prd.json shape users already have names the same list `userStories`.
      userStories: zod.optional(zod.array(story)),
    })
    .check(
      zod.refine((value) => value.stories !== undefined || value.userStories !== undefined, {
        message: 'needs a "stories" array (or "userStories")',
      }),
      zod.superRefine((value, context) => {
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
      }),
    );
});

/** Larger than any task list: one the agent blew up on its branch is not read into memory from git. */
export const MAX_BRANCH_TASKS_BYTES = 4 * 1024 * 1024;

/** Parses the text of tasks.json without throwing; the schema's first issue is the error. */
export function parseTasks(text: string): TasksParse {
  return readTasks(text).parsed;
}

/** `parseTasks`, with the JSON it read: the start checks also look at its keys, from the same parse. */
export function readTasks(text: string): { parsed: TasksParse; json?: unknown } {
  const json = parseJson(text);
  if (!json.ok) return { parsed: { ok: false, error: `not valid JSON (${json.error})` } };
  return { parsed: parseBySchema(json.value), json: json.value };
}

/** The schema's reading of a task list. */
export function parseBySchema(json: unknown): TasksParse {
  const result = taskListSchema().safeParse(json);
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
