/**
 * The YAML the generated workflow is written in, read as a tree: block mappings, block sequences,
 * literal blocks (`|`), quoted and plain scalars, flow `[a, b]` and `{}`. Enough for the files ralph
 * writes (actionlint checks them against the real grammar); anything else throws.
 */
export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };

export function parseYaml(text: string): YamlValue {
  const lines = text.split('\n');
  const [value] = parseBlock(lines, nextLine(lines, 0));
  return value;
}

const indentOf = (line: string) => line.search(/\S/);
const isSkipped = (line: string) => line.trim() === '' || line.trim().startsWith('#');

function nextLine(lines: string[], from: number): number {
  let index = from;
  while (index < lines.length && isSkipped(lines[index]!)) index++;
  return index;
}

function parseBlock(lines: string[], at: number): [YamlValue, number] {
  const indent = indentOf(lines[at]!);
  return lines[at]!.trimStart().startsWith('- ') ? parseSequence(lines, at, indent) : parseMapping(lines, at, indent);
}

function parseMapping(lines: string[], from: number, indent: number): [YamlValue, number] {
  const map: Record<string, YamlValue> = {};
  let index = nextLine(lines, from);
  while (index < lines.length && indentOf(lines[index]!) === indent && !lines[index]!.trimStart().startsWith('- ')) {
    const match = /^\s*([^:#]+?):(?: (.*))?$/.exec(lines[index]!);
    if (!match) throw new Error(`workflow-yaml: cannot read line ${index + 1}: ${lines[index]}`);
    const [, key, rest = ''] = match;
    if (rest.trim() === '|') {
      const [body, end] = literalBlock(lines, index + 1, indent);
      map[key!] = body;
      index = nextLine(lines, end);
    } else if (rest.trim() === '') {
      const child = nextLine(lines, index + 1);
      if (child >= lines.length || indentOf(lines[child]!) <= indent) throw new Error(`workflow-yaml: ${key} is empty`);
      const [value, end] = parseBlock(lines, child);
      map[key!] = value;
      index = nextLine(lines, end);
    } else {
      map[key!] = scalar(rest.trim());
      index = nextLine(lines, index + 1);
    }
  }
  return [map, index];
}

function parseSequence(lines: string[], from: number, indent: number): [YamlValue, number] {
  const list: YamlValue[] = [];
  let index = nextLine(lines, from);
  while (index < lines.length && indentOf(lines[index]!) === indent && lines[index]!.trimStart().startsWith('- ')) {
    const content = lines[index]!.trimStart().slice(2);
    if (/^[^'"[{][^:]*:( |$)/.test(content)) {
      // `- key: value` opens a mapping two columns in.
      lines[index] = `${' '.repeat(indent + 2)}${content}`;
      const [value, end] = parseMapping(lines, index, indent + 2);
      list.push(value);
      index = nextLine(lines, end);
    } else {
      list.push(scalar(content.trim()));
      index = nextLine(lines, index + 1);
    }
  }
  return [list, index];
}

/** A `|` block: the lines indented deeper than its key, their common indentation removed, one final newline. */
function literalBlock(lines: string[], from: number, keyIndent: number): [string, number] {
  let index = from;
  const body: string[] = [];
  while (index < lines.length && (lines[index]!.trim() === '' || indentOf(lines[index]!) > keyIndent))
    body.push(lines[index++]!);
  while (body.length > 0 && body.at(-1)!.trim() === '') {
    body.pop();
    index--;
  }
  const indent = Math.min(...body.filter((line) => line.trim() !== '').map(indentOf));
  return [`${body.map((line) => line.slice(indent)).join('\n')}\n`, index];
}

function scalar(text: string): YamlValue {
  if (text === '{}') return {};
  if (text.startsWith('[') && text.endsWith(']'))
    return text
      .slice(1, -1)
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  if (text.startsWith('"') && text.endsWith('"')) return JSON.parse(text) as string;
  if (text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
  return text;
}
