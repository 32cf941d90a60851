import { statSync } from 'node:fs';

/**
 * Where the project is: the harness's launch directory first (the payload's `cwd` follows the
 * agent's `cd`), then the payload's cwd, then our own. The first that is a directory wins.
 */
export function pickProjectDir(candidates: Array<string | undefined>, fallback: string): string {
  for (const candidate of candidates) {
    if (candidate && isDirectory(candidate)) return candidate;
  }
  return fallback;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
