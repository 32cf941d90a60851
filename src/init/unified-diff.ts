/**
 * A unified diff of two texts (line-based, longest common subsequence), for showing a plan before
 * writing. Files here are small settings and configs, so the quadratic table is fine.
 */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined, context = 3): string {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  if (ops.every((op) => op.kind === ' ')) return '';
  const header = [`--- ${before === undefined ? '/dev/null' : `a/${path}`}`, `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`];
  return `${[...header, ...hunks(ops, context)].join('\n')}\n`;
}

type Op = { kind: ' ' | '-' | '+'; line: string; aIndex: number; bIndex: number };

function splitLines(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function diffLines(a: string[], b: string[]): Op[] {
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lcs[i] ?? [];
      row[j] = a[i] === b[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] ?? '', aIndex: i++, bIndex: j++ });
    } else if (j < b.length && (i >= a.length || (lcs[i]?.[j + 1] ?? 0) >= (lcs[i + 1]?.[j] ?? 0))) {
      ops.push({ kind: '+', line: b[j] ?? '', aIndex: i, bIndex: j++ });
    } else {
      ops.push({ kind: '-', line: a[i] ?? '', aIndex: i++, bIndex: j });
    }
  }
  return ops;
}

function hunks(ops: Op[], context: number): string[] {
  const out: string[] = [];
  let index = 0;
  while (index < ops.length) {
    const firstChange = ops.findIndex((op, k) => k >= index && op.kind !== ' ');
    if (firstChange === -1) break;
    const start = Math.max(index, firstChange - context);
    let end = firstChange;
    let lastChange = firstChange;
    while (end < ops.length && end - lastChange <= context * 2) {
      if (ops[end]?.kind !== ' ') lastChange = end;
      end++;
    }
    end = Math.min(ops.length, lastChange + context + 1);
    const slice = ops.slice(start, end);
    const aStart = (slice[0]?.aIndex ?? 0) + 1;
    const bStart = (slice[0]?.bIndex ?? 0) + 1;
    const aCount = slice.filter((op) => op.kind !== '+').length;
    const bCount = slice.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${aCount === 0 ? aStart - 1 : aStart},${aCount} +${bCount === 0 ? bStart - 1 : bStart},${bCount} @@`);
    for (const op of slice) out.push(`${op.kind}${op.line}`);
    index = end;
  }
  return out;
}
