import { cleanText } from './clean-text.js';
import type { Failure, Filtered } from './filter.js';
import { collectFiltered, type Collector } from './native/collect-filtered.js';
import { GO_PACKAGE_HEADER, goDiagnosticEnd, parseGoDiagnostic } from './native/go-lines.js';
import { trimGoStack } from './native/go-stack.js';
import { goValues } from './native/native-values.js';

const RESULT = /^(FAIL|ok {2}|\? {3})\t(\S+)(.*)$/;
const STATUS = /^(\s*)--- (FAIL|PASS|SKIP): (\S+)(?: \([\d.]+s\))?$/;
const STARTED = /^=== (RUN|CONT|NAME|PAUSE)\s+(\S+)$/;
const NOISE = /^(?:PASS|FAIL|exit status \d+|coverage: .*|testing: warning: no tests to run)$/;
const LOG_LINE = /^\s+(\S+\.go):(\d+): (.*)$/;
const MAX_PACKAGES = 10;

interface GoTest {
  header: string;
  lines: string[];
  failed: boolean;
  position: number;
}

interface Pending {
  position: number;
  lines: string[];
  failures: Failure[];
  test?: boolean;
}

/**
 * `go test` with or without -v: one item per failing top-level test with its failing subtests, log
 * lines and panic (runtime and testing frames dropped); build errors one item each; passing tests,
 * RUN lines and timings go. The failing packages' result lines are the totals.
 */
export function goTestFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const out = collectFiltered('failures', raw, lines);
  const failedPackages: string[] = [];
  let tests = new Map<string, GoTest>();
  let loose: Pending[] = [];
  let current: string | undefined;
  let lastLoose = -2;
  const test = (name: string): GoTest => {
    const entry = tests.get(name) ?? { header: '', lines: [], failed: false, position: -1 };
    tests.set(name, entry);
    return entry;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const result = RESULT.exec(line);
    if (result !== null) {
      emitPackage(out, result[2] ?? '', tests, loose);
      if (result[1] === 'FAIL') failedPackages.push(`FAIL\t${result[2] ?? ''}${(result[3] ?? '').replace(/\t[\d.]+s$/, '')}`);
      [tests, loose, current] = [new Map(), [], undefined];
      continue;
    }
    const started = STARTED.exec(line);
    const status = STATUS.exec(line);
    const diagnostic = parseGoDiagnostic(line);
    if (started !== null) {
      if (started[1] !== 'PAUSE') current = started[2];
    } else if (status !== null) {
      const [, indent = '', verdict, name = ''] = status;
      current = name;
      const entry = test(name);
      if (verdict === 'FAIL' && !entry.failed) Object.assign(entry, { failed: true, header: `${indent}--- FAIL: ${name}`, position: index });
    } else if (diagnostic !== undefined) {
      const end = goDiagnosticEnd(lines, index);
      loose.push({ position: index, lines: lines.slice(index, end), failures: [diagnostic] });
      index = end - 1;
    } else if (GO_PACKAGE_HEADER.test(line) || NOISE.test(line)) continue;
    else if (current !== undefined) test(current).lines.push(line);
    else if (line !== '' || lastLoose === index - 1) {
      // Lines no test claims (output of a test binary that did not start, say) stay together.
      const previous = loose.at(-1);
      if (lastLoose === index - 1 && previous !== undefined && previous.failures.length === 0) previous.lines.push(line);
      else loose.push({ position: index, lines: [line], failures: [] });
      lastLoose = index;
    }
  }
  emitPackage(out, '', tests, loose);
  const summary = failedPackages.length > MAX_PACKAGES ? [...failedPackages.slice(0, MAX_PACKAGES), `… ${failedPackages.length - MAX_PACKAGES} more failing packages`] : failedPackages;
  return out.done(summary);
}

function emitPackage(out: Collector, pkg: string, tests: Map<string, GoTest>, loose: Pending[]): void {
  const failed = [...tests].filter(([, entry]) => entry.failed);
  const items: Pending[] = [...loose];
  for (const [name, entry] of failed) {
    if (name.includes('/') && tests.get(name.split('/')[0] ?? '')?.failed === true) continue;
    const family = failed.filter(([other]) => other === name || other.startsWith(`${name}/`)).sort(([, a], [, b]) => a.position - b.position);
    const lines: string[] = [];
    const failures: Failure[] = [];
    for (const [member, { header, lines: log }] of family) {
      const stack = trimGoStack(log);
      lines.push(header, ...stack);
      if (!failed.some(([other]) => other.startsWith(`${member}/`))) failures.push(describeFailure(pkg, member, stack));
    }
    items.push({ position: entry.position, lines, failures, test: true });
  }
  items.sort((a, b) => a.position - b.position);
  // Go names test files without their directory: the package goes where Go puts the duration, once.
  const first = items.find((item) => item.test === true);
  if (first !== undefined && pkg !== '') first.lines[0] = `${first.lines[0] ?? ''} (${pkg})`;
  for (const item of items) {
    out.item(item.lines);
    for (const failure of item.failures) out.fail(failure);
  }
}

function describeFailure(pkg: string, name: string, lines: string[]): Failure {
  const id = pkg === '' ? name : `${pkg}.${name}`;
  for (const [index, line] of lines.entries()) {
    const log = LOG_LINE.exec(line);
    if (log !== null) return { id, file: log[1] ?? '', line: Number(log[2]), message: log[3] ?? '', ...goValues(lines.slice(index)) };
    if (line.startsWith('panic: ')) {
      const frame = lines.map((each) => /^\t(\S+\.go):(\d+)$/.exec(each)).find((match) => match !== null);
      return { id, ...(frame ? { file: frame[1] ?? '', line: Number(frame[2]) } : {}), message: line };
    }
  }
  return { id, message: `--- FAIL: ${name}` };
}
