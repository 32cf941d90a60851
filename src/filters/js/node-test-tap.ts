import type { Failure } from '../filter.js';
import type { Parsed } from './build-filtered.js';
import { isLibraryFrame, parsePosition } from './stack-frames.js';
import { nodeAssertValues } from './expected-received.js';
import { dedent } from './tidy-lines.js';
import { tidyNodeError } from './tidy-node-error.js';

// `node --test --test-reporter=tap`: "# Subtest: name" opens a test (nested by four spaces), "not ok
// N - name" closes it with a YAML block between "---" and "..."; a file's stray output is "# " comments.
const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const RESULT = /^(\s*)(not ok|ok) \d+ - (.*?)(?: # (?:SKIP|TODO)\b.*)?$/;
const TOTAL = /^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/;
const COMMENT = /^# (.*)$/;
const NOISY_KEY = /^(?:duration_ms|type|failureType|exitCode|signal):/;

interface Entry {
  name: string;
  location: string | undefined;
  lines: string[];
}

export function parseNodeTap(lines: readonly string[]): Parsed {
  const entries: Entry[] = [];
  const totals: string[] = [];
  const names: string[] = [];
  let stray: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const subtest = SUBTEST.exec(line);
    if (subtest) {
      const level = Math.floor((subtest[1]?.length ?? 0) / 4);
      names.length = level;
      names[level] = subtest[2] ?? '';
      continue;
    }
    const total = TOTAL.exec(line);
    if (total) {
      totals.push(`${total[1]} ${total[2]}`);
      continue;
    }
    const result = RESULT.exec(line);
    if (!result) {
      const comment = COMMENT.exec(line);
      if (comment && !line.startsWith('# duration_ms')) stray.push((comment[1] ?? '').replace(/\\#/g, '#'));
      continue;
    }
    const level = Math.floor((result[1]?.length ?? 0) / 4);
    const yaml: string[] = [];
    const start = /^(\s*)---$/.exec(lines[index + 1] ?? '');
    if (start) {
      // The block ends at "..." indented as its "---" was; a deeper "..." is part of a diff.
      const end = `${start[1] ?? ''}...`;
      index++;
      while (index + 1 < lines.length && lines[index + 1] !== end) yaml.push(lines[++index] ?? '');
      index++;
    }
    const name = [...names.slice(0, level), result[3] ?? ''].join(' > ');
    // A suite that failed only because its tests did: they have their own entries.
    if (result[2] === 'not ok' && !yaml.some((field) => /failureType: 'subtestsFailed'/.test(field))) {
      entries.push({ name, location: /^\s*location: '(.+)'$/m.exec(yaml.join('\n'))?.[1], lines: [...tidyYaml(yaml), ...tidyNodeError(stray)] });
    }
    stray = [];
  }
  return {
    items: entries.map((entry) => [`not ok ${entry.name}`, ...entry.lines.map((line) => `  ${line}`)]),
    noun: 'failures',
    summary: totals.length > 0 ? [`# ${totals.join(', ')}`] : [],
    failures: entries.map(toFailure),
  };
}

/** The YAML diagnostic without durations and bookkeeping, and its stack without the runtime's frames. */
function tidyYaml(yaml: readonly string[]): string[] {
  const kept: string[] = [];
  let inStack = false;
  for (const line of dedent(yaml)) {
    if (line.trim() === '') continue;
    if (!line.startsWith(' ')) inStack = line.startsWith('stack:');
    if (NOISY_KEY.test(line) || (inStack && isLibraryFrame(`at ${line.trim()}`))) continue;
    kept.push(line.replace(/file:\/\//g, ''));
  }
  return kept.at(-1)?.startsWith('stack:') ? kept.slice(0, -1) : kept;
}

function toFailure(entry: Entry): Failure {
  const position = entry.location === undefined ? undefined : parsePosition(entry.location);
  const errorAt = entry.lines.findIndex((line) => line.startsWith('error:'));
  const errorLine = entry.lines[errorAt] ?? '';
  const text = (errorLine.endsWith('|-') ? entry.lines[errorAt + 1] ?? '' : errorLine.replace(/^error:\s*'?(.*?)'?$/, '$1')).trim();
  const errorName = entry.lines.map((line) => /^name: '(.+)'$/.exec(line)?.[1]).find((found) => found !== undefined);
  const message = errorName ? `${errorName}: ${text}` : text;
  const found = nodeAssertValues(entry.lines.filter((line) => !line.startsWith(' ')));
  return { id: position ? `${position.file} > ${entry.name}` : entry.name, ...(position ? { file: position.file, line: position.line } : {}), message, ...found };
}
