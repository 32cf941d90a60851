import { spawnSync } from 'node:child_process';
import { dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import { reincludeLines } from './gitignore-lines.js';

/** A file the team should commit that git ignores (and does not track), with what brings it back. */
export interface IgnoredFile {
  /** As given: relative to the directory asked from. */
  file: string;
  /** Where the pattern is, like `.gitignore:3` (`.git/info/exclude`, or the user's global excludes file). */
  where: string;
  pattern: string;
  /** The .gitignore the re-include lines go into, relative to the directory asked from. */
  ignoreFile: string;
  lines: string[];
}

interface Match {
  source: string;
  line: string;
  pattern: string;
  path: string;
}

/**
 * The files git would leave out of `git add -A`: one `git check-ignore -v` for the files and each of
 * their directories. A tracked file is never reported (check-ignore skips the index's files), so one
 * committed with `git add -f` is fine. Undefined when git could not answer (no repository).
 */
export function findIgnored(dir: string, repoRoot: string, files: string[]): IgnoredFile[] | undefined {
  if (files.length === 0) return [];
  const dirsOf = (file: string) => file.split('/').slice(0, -1).map((_, index, parts) => `${parts.slice(0, index + 1).join('/')}/`);
  const asked = [...new Set([...files, ...files.flatMap(dirsOf)])];
  const result = spawnSync('git', ['check-ignore', '-v', '-z', '--stdin'], { cwd: dir, input: `${asked.join('\0')}\0`, encoding: 'utf8' });
  if (result.status !== 0 && result.status !== 1) return undefined;
  const matches = new Map(parseCheckIgnore(result.stdout).map((match) => [match.path, match]));
  return files.flatMap((file) => {
    const match = matches.get(file);
    if (match === undefined || match.pattern.startsWith('!')) return [];
    // The topmost directory excluded by the same pattern: git reports a file under it with that pattern.
    const excludedDepth = dirsOf(file).findIndex((ancestor) => {
      const found = matches.get(ancestor);
      return found !== undefined && found.source === match.source && found.line === match.line;
    });
    const inRepo = !isAbsolute(match.source) && match.source.split('/').pop() === '.gitignore';
    const ignoreAt = inRepo ? join(repoRoot, match.source) : join(repoRoot, '.gitignore');
    const fromIgnoreDir = relative(dirname(ignoreAt), join(dir, file)).split(sep).join('/');
    const skipped = fromIgnoreDir.split('/').length - file.split('/').length;
    return [
      {
        file,
        where: isAbsolute(match.source) ? `${match.source}:${match.line}` : `${posix.normalize(match.source)}:${match.line}`,
        pattern: match.pattern,
        ignoreFile: relative(dir, ignoreAt).split(sep).join('/'),
        lines: reincludeLines(fromIgnoreDir, excludedDepth < 0 ? -1 : excludedDepth + skipped),
      },
    ];
  });
}

/** `git check-ignore -v -z` output: source, line number, pattern and path, each NUL-terminated. */
export function parseCheckIgnore(output: string): Match[] {
  const fields = output.split('\0');
  const matches: Match[] = [];
  for (let index = 0; index + 3 < fields.length; index += 4) {
    const [source = '', line = '', pattern = '', path = ''] = fields.slice(index, index + 4);
    if (source !== '') matches.push({ source, line, pattern, path });
  }
  return matches;
}
