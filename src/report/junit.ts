import type { GateFailures, PlacedFailure } from './gate-failures.js';

/**
 * JUnit XML, as CI systems read test reports (Jenkins, GitLab, Azure, CircleCI): one `<testsuite>`
 * per gate; a failing test or diagnostic is a `<testcase>` with a `<failure>`, a gate that failed
 * without naming one is a test case of its own, a timeout or a gate that could not start an `<error>`,
 * a passing gate one passing test case, a gate with nothing to run on a skipped one.
 */
export function toJunit(gates: readonly GateFailures[]): string {
  const suites = gates.map(suite);
  const total = (key: 'tests' | 'failures' | 'errors' | 'skipped') => suites.reduce((sum, one) => sum + one[key], 0);
  const seconds = gates.reduce((sum, gate) => sum + gate.durationMs, 0) / 1000;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="gate" tests="${total('tests')}" failures="${total('failures')}" errors="${total('errors')}" skipped="${total('skipped')}" time="${seconds.toFixed(3)}">`,
    ...suites.flatMap((one) => one.lines),
    '</testsuites>',
    '',
  ].join('\n');
}

interface Suite {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  lines: string[];
}

function suite(gate: GateFailures): Suite {
  const cases = testCases(gate);
  const count = (kind: TestCase['kind']) => cases.filter((one) => one.kind === kind).length;
  const head = `  <testsuite name="${attr(gate.gate)}" tests="${cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${(gate.durationMs / 1000).toFixed(3)}">`;
  return {
    tests: cases.length,
    failures: count('failure'),
    errors: count('error'),
    skipped: count('skipped'),
    lines: [head, `    <properties><property name="command" value="${attr(gate.command)}"/></properties>`, ...cases.flatMap((one) => one.lines), '  </testsuite>'],
  };
}

interface TestCase {
  kind: 'passed' | 'failure' | 'error' | 'skipped';
  lines: string[];
}

function testCases(gate: GateFailures): TestCase[] {
  const classname = attr(`${gate.gate}.${gate.tool}`);
  const whole = (kind: TestCase['kind'], inner: string[]): TestCase => ({
    kind,
    lines: inner.length === 0 ? [`    <testcase classname="${classname}" name="${attr(gate.gate)}"/>`] : [`    <testcase classname="${classname}" name="${attr(gate.gate)}">`, ...inner, '    </testcase>'],
  });
  switch (gate.status) {
    case 'passed':
      return [whole('passed', [])];
    case 'skipped':
      return [whole('skipped', [`      <skipped message="${attr(gate.outcome)}"/>`])];
    case 'timed-out':
    case 'not-started':
      return [whole('error', [`      <error message="${attr(gate.outcome)}" type="${gate.status}">${text(gate.command)}</error>`])];
    case 'failed':
      if (gate.failures.length === 0) return [whole('failure', [`      <failure message="${attr(gate.outcome)}" type="gate-failed">${text([gate.command, ...gate.kept].join('\n'))}</failure>`])];
      return gate.failures.map((failure) => failureCase(classname, failure));
  }
}

function failureCase(classname: string, failure: PlacedFailure): TestCase {
  const where = failure.path === undefined ? '' : ` file="${attr(failure.path)}"${failure.line === undefined ? '' : ` line="${failure.line}"`}`;
  const body = [failure.message, failure.expected === undefined ? '' : `expected: ${failure.expected}`, failure.received === undefined ? '' : `received: ${failure.received}`, failure.preExisting ? 'failed before the change too' : '']
    .filter((line) => line !== '')
    .join('\n');
  const type = failure.rule ?? 'failing-test';
  return {
    kind: 'failure',
    lines: [`    <testcase classname="${classname}" name="${attr(failure.id)}"${where}>`, `      <failure message="${attr(failure.message)}" type="${attr(type)}">${text(body)}</failure>`, '    </testcase>'],
  };
}

// XML 1.0 allows no control character but tab, newline and carriage return: a tool's colour codes would make the file unreadable.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function text(value: string): string {
  return value.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
