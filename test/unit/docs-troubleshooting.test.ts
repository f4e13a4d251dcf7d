import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/troubleshooting.md promises "the exact messages ralph prints": each one must be what a
// string in src/ produces (its ${…} parts standing for any value), or, for the agent's own
// words, what the recorded claude output in test/fixtures/claude/ says.

const ROOT = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every string and template literal in src/ with some fixed text, as its fixed parts; `${…}` stands for any text. */
const sourceTemplates: string[][] = filesUnder(join(ROOT, 'src'))
  .filter((path) => path.endsWith('.ts'))
  .flatMap((path) => [...readFileSync(path, 'utf8').matchAll(/`((?:[^`\\]|\\.)*)`|'((?:[^'\\\n]|\\.)*)'/g)])
  .map((match) => (match[1] ?? match[2]!).replace(/\\(.)/g, '$1').split(/\$\{[^}]*\}/))
  .filter((parts) => parts.join('').trim().length >= 8);

/**
 * Whether a source template produces the message, its fixed text being a good part of it (not
 * just `${a}: ${b}`). A message ending in `…` is open: the rest is another program's words (git's).
 */
function produces(parts: string[], message: string): boolean {
  const open = message.endsWith('…');
  const text = open ? message.slice(0, -1) : message;
  const fixed = parts.join('').length;
  const trimmed = [...parts.slice(0, -1), parts[parts.length - 1]!.trimEnd()];
  return (
    fixed >= text.length * 0.35 &&
    new RegExp(`^${trimmed.map(escape).join('.+')}${open ? '' : '\\s*$'}`).test(open ? `${text}…` : text)
  );
}
const fromSource = (message: string) => sourceTemplates.some((parts) => produces(parts, message));
const agentWords = filesUnder(join(ROOT, 'test/fixtures/claude'))
  .map((path) => readFileSync(path, 'utf8'))
  .join('\n');

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first code span of each table row: the message. */
const messages = readFileSync(join(ROOT, 'docs/troubleshooting.md'), 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => /^\| `([^`]+)`/.exec(line)![1]!);

describe('docs/troubleshooting.md', () => {
  it('lists the set-up failures the issue names', () => {
    const all = messages.join('\n');
    for (const needle of [
      'running as root',
      'Not logged in',
      'Unable to connect to API',
      "agent executable 'claude' not found",
      'another ralph run is active',
      'is still the example',
      'cannot switch to branch',
    ]) {
      expect(all).toContain(needle);
    }
  });

  it.each(messages)('%s is a message ralph (or claude) really prints', (message) => {
    // A line of several messages (for example several of claude's own lines) lists each in its own span.
    const known = fromSource(message) || agentWords.includes(message);
    expect(known, `no string in src/ or test/fixtures/claude/ produces: ${message}`).toBe(true);
  });

  it('tells a message apart from one ralph does not print', () => {
    const invented = 'agent executable claude is missing';
    expect(fromSource(invented) || agentWords.includes(invented)).toBe(false);
    expect(fromSource("agent executable 'claude' not found on PATH")).toBe(true);
  });
});
