/**
 * GitHub Actions expressions (`${{ … }}` and `if:`), as far as the generated workflow uses them:
 * context paths, string literals, true/false/null, `!`, `==`, `!=`, `&&`, `||`, parentheses and the
 * status functions. Comparison is GitHub's loose one for the strings and booleans involved; `&&`
 * and `||` return an operand, as GitHub's do.
 */
export type ExpressionValue = string | boolean | null;

export interface ExpressionContext {
  lookup: (path: string[]) => ExpressionValue;
  /** always(), success(), failure(), cancelled(). */
  status: (name: string) => boolean;
}

const TOKEN = /\s*(\(|\)|&&|\|\||==|!=|!|'(?:[^']|'')*'|[A-Za-z_][\w.-]*(?:\(\))?)/y;

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const match = TOKEN.exec(source);
    if (!match) throw new Error(`workflow-expressions: cannot read ${source.slice(TOKEN.lastIndex)}`);
    tokens.push(match[1]!);
  }
  return tokens;
}

const truthy = (value: ExpressionValue) => value !== null && value !== false && value !== '';
const loose = (value: ExpressionValue) => (value === null ? '' : String(value));

export function evaluate(source: string, context: ExpressionContext): ExpressionValue {
  const tokens = tokenize(source);
  let at = 0;
  const or = (): ExpressionValue => {
    let left = and();
    while (tokens[at] === '||') {
      at++;
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): ExpressionValue => {
    let left = compare();
    while (tokens[at] === '&&') {
      at++;
      const right = compare();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const compare = (): ExpressionValue => {
    const left = unary();
    const operator = tokens[at];
    if (operator !== '==' && operator !== '!=') return left;
    at++;
    const same = loose(left).toLowerCase() === loose(unary()).toLowerCase();
    return operator === '==' ? same : !same;
  };
  const unary = (): ExpressionValue => {
    if (tokens[at] === '!') {
      at++;
      return !truthy(unary());
    }
    return primary();
  };
  const primary = (): ExpressionValue => {
    const token = tokens[at++];
    if (token === undefined) throw new Error(`workflow-expressions: ${source} ends early`);
    if (token === '(') {
      const value = or();
      if (tokens[at++] !== ')') throw new Error(`workflow-expressions: ${source} misses a )`);
      return value;
    }
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (token === 'true' || token === 'false') return token === 'true';
    if (token === 'null') return null;
    if (token.endsWith('()')) return context.status(token.slice(0, -2));
    return context.lookup(token.split('.'));
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`workflow-expressions: ${source} has more after ${tokens[at - 1]}`);
  return value;
}

/** An `if:` condition: without a status function, GitHub adds success(). */
export function condition(source: string | undefined, context: ExpressionContext): boolean {
  const inner = (source ?? '').replace(/^\s*\$\{\{([\s\S]*)\}\}\s*$/, '$1');
  if (inner.trim() === '') return context.status('success');
  const value = truthy(evaluate(inner, context));
  return /\b(always|success|failure|cancelled)\(\)/.test(inner) ? value : value && context.status('success');
}

/** Every `${{ … }}` in a string, replaced by its value. */
export function substitute(text: string, context: ExpressionContext): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_match, inner: string) => loose(evaluate(inner, context)));
}
