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

/**
 * A path segment that may be a webhook's secret: token-like, or just long. Slack's own example
 * webhook ends in 24 letters and no digit; a path is where most webhooks keep their secret.
 */
function secretSegment(segment: string): boolean {
  const decoded = decodeSafely(segment);
  return tokenLike(decoded) || decoded.length >= 16;
}

/** A URL as it may be shown: no user or password, no query string, no fragment, no secret-like path segment. */
export function maskUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const path = text.replace(/[?#].*$/s, `?${MASK}`).split('/');
    return maskTokens(path.map((segment) => (secretSegment(segment) ? MASK : segment)).join('/'));
  }
  const userinfo = url.username || url.password ? `${MASK}@` : '';
  const path = url.pathname
    .split('/')
    .map((segment) => (secretSegment(segment) ? MASK : segment))
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

/**
 * A notification target as it may be shown anywhere: a command through its words, anything else as
 * a URL — a mistyped one too (`htps://`, `http:/`, `ftp://user:pw@`, no scheme at all), whose
 * password, query and path are as secret as a good one's.
 */
export function maskTarget(target: string): string {
  if (/^cmd:/i.test(target)) return maskTokens(target);
  return maskUrl(target);
}
