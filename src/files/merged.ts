/** What a merge made of a file: its new text, and the entries it added (none: unchanged). */
export interface Merged {
  text: string;
  added: string[];
  /** Set when the file could not be merged safely and was left as it is: what the user should do. */
  warning?: string;
}
