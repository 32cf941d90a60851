import { filterOutput } from '../filters/filter-output.js';
import type { Failure } from '../filters/filter.js';
import { judgeTestChange } from './judge-test-change.js';
import { locateTestFile } from './locate-test-file.js';
import { FileReader } from './read-changed-file.js';
import { MAX_LINE_CHARS, MAX_REMEMBERED_TESTS, MAX_TEST_LINES, type RememberedTest } from '../state/remembered-test.js';
import type { TamperFinding } from './tamper-finding.js';
import { syntaxFor, syntaxWithHelpers, type TestSyntax } from './test-syntax.js';

const MAX_READ_BYTES = 8 * 1024 * 1024;

/** What this needs of a gate's run: its name and cwd, status, filter and output. */
export interface GateRun {
  name: string;
  cwd: string;
  status: string;
  filter: string;
  output: string;
}

/**
 * At a block: each failing test the filters could place in a file (at most 50), with the report's
 * expected/received values and the test's own lines, to compare with at the next stop.
 */
export function rememberFailingTests(root: string, failed: readonly GateRun[]): RememberedTest[] {
  const reader = new FileReader(root, MAX_READ_BYTES);
  const files = new Map<string, string[] | undefined>();
  const tests: RememberedTest[] = [];
  for (const run of failed) {
    for (const failure of filterOutput(run.filter, run.output).failures) {
      if (tests.length >= MAX_REMEMBERED_TESTS) return tests;
      const file = failure.file === undefined ? undefined : locateTestFile(root, run.cwd, failure);
      if (file === undefined) continue;
      if (!files.has(file)) files.set(file, reader.read(file)?.split('\n'));
      const test = rememberTest(run.name, file, failure, files.get(file));
      if (test) tests.push(test);
    }
  }
  return tests;
}

function rememberTest(gate: string, file: string, failure: Failure, lines: string[] | undefined): RememberedTest | undefined {
  if (!lines) return undefined;
  const line = failure.line ?? 0;
  const syntax = syntaxFor(file);
  const span = syntax.findSpan(lines, syntax.titleOf(failure.id), line);
  if (!span || span.end - span.start + 1 > MAX_TEST_LINES) return undefined;
  const text = lines.slice(span.start, span.end + 1).map((item) => item.replace(/\r$/, '').slice(0, MAX_LINE_CHARS));
  return {
    gate,
    id: failure.id,
    file,
    line,
    ...(failure.expected === undefined ? {} : { expected: failure.expected }),
    ...(failure.received === undefined ? {} : { received: failure.received }),
    start: span.start + 1,
    text,
  };
}

/**
 * At the next stop: each remembered test that passes now (its gate passed, or it is no longer
 * among the gate's failures) and whose checks were changed since the block — rewritten to the
 * value the code returned, weakened, deleted, or the body emptied. A test gate did not run this
 * time, or that is not found under its name any more (renamed, deleted), is left alone.
 */
export function findRewrittenExpectations(root: string, remembered: readonly RememberedTest[], runs: readonly GateRun[]): TamperFinding[] {
  const reader = new FileReader(root, MAX_READ_BYTES);
  const failing = new Map<string, Set<string> | undefined>();
  const files = new Map<string, string[] | undefined>();
  const findings = new Map<string, TamperFinding>();
  const syntaxes = new Map<string, TestSyntax>();
  for (const test of remembered) {
    const run = runs.find((candidate) => candidate.name === test.gate);
    if (!run || (run.status !== 'passed' && run.status !== 'failed')) continue;
    if (!failing.has(run.name)) failing.set(run.name, run.status === 'passed' ? new Set() : new Set(filterOutput(run.filter, run.output).failures.map((failure) => failure.id)));
    if (failing.get(run.name)?.has(test.id) !== false) continue;
    if (!files.has(test.file)) files.set(test.file, reader.read(test.file)?.split('\n'));
    const lines = files.get(test.file);
    if (!lines) continue;
    if (!syntaxes.has(test.file)) syntaxes.set(test.file, syntaxWithHelpers(test.file, (path) => (path === test.file ? lines.join('\n') : reader.read(path))));
    const syntax = syntaxes.get(test.file) ?? syntaxFor(test.file);
    const span = syntax.findSpan(lines, syntax.titleOf(test.id), test.start);
    if (!span) continue;
    const change = judgeTestChange(test.text, lines.slice(span.start, span.end + 1), test, syntax);
    const line = span.start + (change?.offset ?? 0) + 1;
    // Two subtests of one Go function, two cases of one parametrized test: one finding.
    if (change) findings.set(`${test.file}:${line}`, { path: test.file, line, kind: 'weakened-test', detail: change.detail });
  }
  return [...findings.values()];
}
