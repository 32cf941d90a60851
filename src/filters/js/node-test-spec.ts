import type { Failure } from '../filter.js';
import type { Parsed } from './build-filtered.js';
import { firstUserPosition, parsePosition } from './stack-frames.js';
import { nodeAssertValues } from './expected-received.js';
import { dedent, stripDuration } from './tidy-lines.js';
import { tidyNodeError } from './tidy-node-error.js';

// `node --test --test-reporter=spec` (Node 20+): a tree of ▶ suites and ✔/✖ tests, each failure's
// error indented under it; a test file's own stderr (a load error) printed bare before its ✖ line;
// then "ℹ tests 8" totals and "✖ failing tests:", which repeats each failure with "test at file:line:col".
const TREE = /^(\s*)([▶✔✖﹣]) (.*)$/;
const TOTAL = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/;
const FAILING_HEADING = /^✖ failing tests:$/;
const TEST_AT = /^test at (.+)$/;

interface Entry {
  name: string;
  /** The ✖ line as printed, duration included: how the failing-tests list refers back to it. */
  key: string;
  body: string[];
  /** The error was printed under the ✖ itself (up to Node 22), not only in the failing-tests list. */
  own: boolean;
}

export function parseNodeSpec(lines: readonly string[]): Parsed {
  const entries: Entry[] = [];
  const totals: string[] = [];
  const locations = new Map<string, string[]>();
  const listed = new Map<string, string[][]>();
  const suites: { indent: number; name: string }[] = [];
  let stray: string[] = [];
  let phase: 'tree' | 'totals' | 'failing' = 'tree';
  let location: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const total = TOTAL.exec(line);
    if (total) {
      phase = 'totals';
      totals.push(`${total[1]} ${total[2]}`);
      continue;
    }
    if (FAILING_HEADING.test(line)) phase = 'failing';
    if (phase === 'failing') {
      location = TEST_AT.exec(line)?.[1] ?? location;
      if (location !== undefined && line.startsWith('✖ ')) {
        locations.set(line, [...(locations.get(line) ?? []), location]);
        location = undefined;
        // Node 22 prints a failure's error only here, not under its ✖ in the tree.
        const body: string[] = [];
        while (index + 1 < lines.length && (lines[index + 1]?.trim() === '' || indentOf(lines[index + 1] ?? '') > 0) && !TEST_AT.test(lines[index + 1] ?? '')) body.push(lines[++index] ?? '');
        listed.set(line, [...(listed.get(line) ?? []), dedent(body)]);
      }
      continue;
    }
    if (phase !== 'tree') continue;
    const tree = TREE.exec(line);
    if (!tree) {
      if (line.trim() !== '') stray.push(line);
      continue;
    }
    const indent = tree[1]?.length ?? 0;
    while ((suites.at(-1)?.indent ?? -1) >= indent) suites.pop();
    const name = stripDuration(tree[3] ?? '');
    if (tree[2] === '▶') suites.push({ indent, name });
    if (tree[2] === '✖') {
      const body: string[] = [];
      while (index + 1 < lines.length && (lines[index + 1]?.trim() === '' || indentOf(lines[index + 1] ?? '') > indent)) body.push(lines[++index] ?? '');
      entries.push({ name: [...suites.map((suite) => suite.name), name].join(' > '), key: line.trim(), body: [...stray, ...dedent(body)], own: hasText(body) });
    }
    stray = [];
  }
  // A ✖ with nothing under it and nothing in the failing list is a suite that failed because its
  // tests did; they are listed already.
  const located = entries.flatMap((entry) => {
    const fromList = entry.own ? [] : (listed.get(entry.key)?.shift() ?? []);
    if (!entry.own && !hasText(fromList)) return [];
    return [{ ...entry, body: [...fromList, ...entry.body], location: locations.get(entry.key)?.shift() }];
  });
  return {
    items: located.map((entry) => [`✖ ${entry.name}${entry.location ? ` (${entry.location})` : ''}`, ...tidyNodeError(entry.body).map((line) => `  ${line}`)]),
    noun: 'failures',
    summary: totals.length > 0 ? [`ℹ ${totals.join(', ')}`] : [],
    failures: located.map(toFailure),
  };
}

function hasText(lines: string[]): boolean {
  return lines.some((line) => line.trim() !== '');
}

function indentOf(line: string): number {
  return /^ */.exec(line)?.[0].length ?? 0;
}

function toFailure(entry: Entry & { location: string | undefined }): Failure {
  const declared = entry.location === undefined ? undefined : parsePosition(entry.location);
  const frames = tidyNodeError(entry.body);
  const failing = declared && firstUserPosition(frames.filter((line) => line.includes(`/${declared.file}:`)));
  const message = frames.find((line) => !/^\s*at\s/.test(line))?.trim() ?? '';
  const found = nodeAssertValues(frames);
  if (!declared) return { id: entry.name, message, ...found };
  return { id: `${declared.file} > ${entry.name}`, file: declared.file, line: failing?.line ?? declared.line, message, ...found };
}
