// Realistic `claude -p --output-format stream-json --verbose` output, built once and repeated:
// the shapes of /work/shared/claude-cli.md (system init, assistant text and small tool_use
// blocks, user tool_result lines, a final result), many small events per megabyte.

const SESSION = '7f3c1e2a-0b5d-4c8e-9a61-2d4f8b0c9e17';
const MODEL = 'claude-sonnet-4-5-20250929';

/** The first line of every run. */
function initEvent() {
  return {
    type: 'system',
    subtype: 'init',
    cwd: '/work/project',
    session_id: SESSION,
    tools: ['Bash', 'Edit', 'Glob', 'Grep', 'Read', 'Write', 'TodoWrite', 'WebFetch'],
    model: MODEL,
    permissionMode: 'bypassPermissions',
    apiKeySource: 'none',
    claude_code_version: '2.1.197',
  };
}

/** One agent turn: a thought, a tool call, its result. */
function turnEvents(n) {
  const toolId = `toolu_01${String(n).padStart(6, '0')}Bench`;
  const usage = {
    input_tokens: 4,
    cache_creation_input_tokens: 312,
    cache_read_input_tokens: 18_422 + n,
    output_tokens: 96,
  };
  const message = (content) => ({
    id: `msg_01${String(n).padStart(6, '0')}`,
    type: 'message',
    role: 'assistant',
    model: MODEL,
    content,
    stop_reason: null,
    usage,
  });
  const tools = [
    { name: 'Bash', input: { command: 'npm test -- --reporter=dot', description: 'Run the test suite' } },
    { name: 'Read', input: { file_path: `/work/project/src/module-${n % 17}.ts` } },
    { name: 'Grep', input: { pattern: 'runIteration', path: '/work/project/src', output_mode: 'content' } },
    {
      name: 'Edit',
      input: {
        file_path: `/work/project/src/module-${n % 17}.ts`,
        old_string: 'return undefined;',
        new_string: 'return { reason: "stuck" };',
      },
    },
  ];
  const tool = tools[n % tools.length];
  const text = `Step ${n}: the failing assertion is in the stuck counter. I will ${tool.name === 'Bash' ? 'run the tests again' : 'look at the code it touches'} before changing anything else, so the fix stays small.`;
  const result = Array.from(
    { length: 6 + (n % 5) },
    (_, line) => `  ${line + 1}\t  const value${line} = compute(${line}, options); // line from module-${n % 17}.ts`,
  ).join('\n');
  return [
    { type: 'assistant', message: message([{ type: 'text', text }]), parent_tool_use_id: null, session_id: SESSION },
    {
      type: 'assistant',
      message: message([{ type: 'tool_use', id: toolId, name: tool.name, input: tool.input }]),
      parent_tool_use_id: null,
      session_id: SESSION,
    },
    {
      type: 'user',
      message: {
        role: 'user',
        content: [{ tool_use_id: toolId, type: 'tool_result', content: result, is_error: n % 23 === 0 }],
      },
      parent_tool_use_id: null,
      session_id: SESSION,
    },
  ];
}

/** The last line of a normal run. */
function resultEvent(turns) {
  return {
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 83_000,
    duration_api_ms: 61_000,
    num_turns: turns,
    result: 'Implemented the story and committed it.',
    session_id: SESSION,
    total_cost_usd: 0.4187,
    usage: {
      input_tokens: 1_200,
      cache_creation_input_tokens: 40_000,
      cache_read_input_tokens: 900_000,
      output_tokens: 25_000,
    },
    permission_denials: [],
    terminal_reason: 'completed',
  };
}

const lines = (events) => events.map((event) => JSON.stringify(event) + '\n').join('');

/**
 * The output for about `targetBytes` bytes: a head line, a block of turns repeated `repeats`
 * times, and a tail line; `bytes` is the exact total.
 * @param {number} targetBytes
 */
export function planStream(targetBytes, blockBytes = 1 << 20) {
  const head = Buffer.from(lines([initEvent()]));
  const turns = [];
  let size = 0;
  for (let n = 1; size < Math.min(blockBytes, targetBytes); n++) {
    const turn = lines(turnEvents(n));
    turns.push(turn);
    size += Buffer.byteLength(turn);
  }
  const block = Buffer.from(turns.join(''));
  const repeats = Math.max(1, Math.round(targetBytes / block.length));
  const tail = Buffer.from(lines([resultEvent(turns.length * repeats)]));
  return { head, block, repeats, tail, bytes: head.length + block.length * repeats + tail.length };
}
