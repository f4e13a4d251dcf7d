/**
 * Secrets written into a notification target (a webhook's path or query, a token passed to a
 * command) never reach an output: the transcript, last-run.json and --dry-run show the target
 * through `maskTarget`. Masking errs on the side of hiding: a long word with letters and digits is
 * taken for a token.
 */
const MASK = '***';

/** A word that looks like a token: known prefixes, or 16+ characters mixing letters and digits. */
function tokenLike(word: string): boolean {
  if (/^(xox[a-z]-|gh[pousr]_|github_pat_|sk-|glpat-)/i.test(word)) return true;
  return word.length >= 16 && /[A-Za-z]/.test(word) && /\d/.test(word);
}

/** Masks every token-like run of a text (`secret=` and `token=` values included). */
export function maskTokens(text: string): string {
  return text
    .replace(/((?:token|secret|password|passwd|key|auth)[\w-]*[=:])[^\s&"']+/gi, `$1${MASK}`)
    .replace(/[A-Za-z0-9_\-+/=.]+/g, (word) => (tokenLike(word) ? MASK : word));
}

/** A URL as it may be shown: no user or password, no query string, no fragment, no token-like path segment. */
export function maskUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return maskTokens(text.replace(/[?#].*$/s, `?${MASK}`));
  }
  const userinfo = url.username || url.password ? `${MASK}@` : '';
  const path = url.pathname
    .split('/')
    .map((segment) => (tokenLike(decodeSafely(segment)) ? MASK : segment))
    .join('/');
  const query = url.search || url.hash ? `?${MASK}` : '';
  return `${url.protocol}//${userinfo}${url.host}${path}${query}`;
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A notification target as it may be shown anywhere. */
export function maskTarget(target: string): string {
  if (/^https?:\/\//i.test(target)) return maskUrl(target);
  return maskTokens(target);
}
