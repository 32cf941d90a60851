import type { AddedLine } from './tamper-finding.js';

export interface FileDiff {
  path: string;
  created: boolean;
  deleted: boolean;
  binary: boolean;
  added: AddedLine[];
  removed: string[];
  /** For each removed line, the line of the current file it stood before (one past the end: after the last). */
  removedBefore: number[];
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Parses `git diff --no-renames -U0 --src-prefix=a/ --dst-prefix=b/`: git's flavour of the unified
 * format (https://git-scm.com/docs/diff-format#generate_patch_text_with_p and
 * https://www.gnu.org/software/diffutils/manual/html_node/Detailed-Unified.html). A hunk is read by
 * the line counts in its `@@` header, so a removed line that starts with `--` is never taken for a
 * header. Combined diffs (`diff --cc`, unmerged paths) are skipped.
 */
export function parseDiff(output: string): FileDiff[] {
  const files: FileDiff[] = [];
  let file: FileDiff | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  let newLine = 0;
  let removedBefore = 0;
  for (const raw of output.split('\n')) {
    if (file && (oldLeft > 0 || newLeft > 0)) {
      const mark = raw[0];
      const text = raw.slice(1).replace(/\r$/, '');
      if (mark === '+' && newLeft > 0) {
        file.added.push({ line: newLine++, text });
        newLeft--;
        continue;
      }
      if (mark === '-' && oldLeft > 0) {
        file.removed.push(text);
        file.removedBefore.push(removedBefore);
        oldLeft--;
        continue;
      }
      if (mark === ' ' && oldLeft > 0 && newLeft > 0) {
        newLine++;
        oldLeft--;
        newLeft--;
        continue;
      }
      if (mark === '\\') continue;
      oldLeft = newLeft = 0;
    }
    if (raw.startsWith('diff --git ')) {
      const path = headerPath(raw.slice('diff --git '.length));
      file = path === undefined ? undefined : { path, created: false, deleted: false, binary: false, added: [], removed: [], removedBefore: [] };
      if (file) files.push(file);
    } else if (raw.startsWith('diff ')) {
      file = undefined;
    } else if (file) {
      const hunk = HUNK.exec(raw);
      if (hunk) {
        oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
        newLeft = hunk[3] === undefined ? 1 : Number(hunk[3]);
        newLine = Number(hunk[2]);
        // `+N,0`: the lines were removed after line N of the current file.
        removedBefore = newLeft === 0 ? newLine + 1 : newLine;
      } else if (raw.startsWith('new file mode')) file.created = true;
      else if (raw.startsWith('deleted file mode')) file.deleted = true;
      else if (raw.startsWith('Binary files ')) file.binary = true;
    }
  }
  return files;
}

/** `a/X b/X` (the same path twice: renames are off), each side C-quoted when it has odd characters. */
export function headerPath(rest: string): string | undefined {
  if (rest.startsWith('"')) {
    const first = readQuoted(rest, 0);
    if (!first) return undefined;
    const after = rest.slice(first.end + 1);
    const second = after.startsWith('"') ? readQuoted(after, 0)?.text : after;
    return second?.startsWith('b/') ? second.slice(2) : undefined;
  }
  if ((rest.length - 5) % 2 !== 0) return undefined;
  const path = rest.slice(2, 2 + (rest.length - 5) / 2);
  return rest === `a/${path} b/${path}` ? path : undefined;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A C-style quoted name as git writes it (core.quotePath): octal escapes are bytes of UTF-8. */
function readQuoted(text: string, start: number): { text: string; end: number } | undefined {
  const bytes: number[] = [];
  for (let i = start + 1; i < text.length; i++) {
    const char = String.fromCodePoint(text.codePointAt(i) ?? 0);
    if (char === '"') return { text: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      i += char.length - 1;
      continue;
    }
    const next = text[++i] ?? '';
    const octal = /^[0-7]{3}/.exec(text.slice(i, i + 3));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 2;
    } else if (next in ESCAPES) bytes.push(ESCAPES[next] ?? 0);
    else return undefined;
  }
  return undefined;
}
