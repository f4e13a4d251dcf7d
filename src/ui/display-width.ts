// Made on first use: building a Segmenter loads ICU's break rules, some 14 ms of a run's start,
// and most text is printable ASCII, a column a character, which never needs one.
let segmenter: Intl.Segmenter | undefined;
const graphemes = (text: string) => (segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text);
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// Two columns: emoji presentation, and the East Asian Wide and Fullwidth blocks (Hangul, CJK, kana, fullwidth forms).
const WIDE =
  /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\u{20000}-\u{3FFFD}]/u;
// No column: control characters, and a grapheme that is only combining marks or joiners.
const ZERO = /^[\p{Cc}\p{Mn}\p{Me}\u200B-\u200F\u2060\uFEFF]+$/u;

/** The columns one grapheme takes in a terminal. */
function graphemeWidth(grapheme: string): number {
  if (ZERO.test(grapheme)) return 0;
  return WIDE.test(grapheme) ? 2 : 1;
}

/** The columns a string (no escape sequences) takes in a terminal: graphemes, not UTF-16 units. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes(text)) width += graphemeWidth(segment);
  return width;
}

/** The text cut to at most `columns` columns, ending in `…` when it was cut; never a half grapheme. */
export function fitToWidth(text: string, columns: number): string {
  if (columns <= 0) return '';
  if (displayWidth(text) <= columns) return text;
  if (PRINTABLE_ASCII.test(text)) return `${text.slice(0, columns - 1)}…`;
  let kept = '';
  let width = 0;
  for (const { segment } of graphemes(text)) {
    const next = graphemeWidth(segment);
    // One column stays free for the ellipsis.
    if (width + next > columns - 1) break;
    kept += segment;
    width += next;
  }
  return `${kept}…`;
}
