import { readFile } from 'node:fs/promises';

/** The text of a file in the package's templates/ folder. */
export function readTemplate(name: string): Promise<string> {
  return readFile(new URL(`../templates/${name}`, import.meta.url), 'utf8');
}

/** The absolute path of a file shipped in the package (relative to its root). */
export function packagePath(relative: string): string {
  return new URL(`../${relative}`, import.meta.url).pathname;
}
