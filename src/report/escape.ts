import { oneLine } from '../text/neutralise.js';

/**
 * Text from the agent or the task list is hostile: a reason may hold `<script>`, a title an
 * `<img onerror>`. Every such text passes through one of these before it reaches the report.
 */
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in HTML content and in a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]!);
}

/**
 * Text safe in a Markdown table cell: HTML is escaped (GitHub renders inline HTML), Markdown's
 * active characters are backslash-escaped, and a newline or a pipe cannot break the row.
 */
export function escapeMarkdown(text: string): string {
  return escapeHtml(oneLine(text)).replace(/[\\`*_{}[\]()#+!|~]/g, (char) => `\\${char}`);
}
