import type { core } from 'zod';
import { closestWord } from './closest-word.js';
import { formatPath, showValue, type ConfigProblem } from './config-problem.js';

const NOUNS: Record<string, string> = {
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  int: 'a whole number',
};

/** Turns zod's issues into problems that name the key, the value given and what would be right. */
export function describeIssues(file: string, issues: core.$ZodIssue[], knownKeys: (path: PropertyKey[]) => string[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    const path = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const guess = closestWord(key, knownKeys(issue.path));
        const hint = guess ? `; did you mean "${guess}"?` : `; known keys: ${knownKeys(issue.path).join(', ')}`;
        problems.push({ file, path: formatPath([...issue.path, key]), message: `unknown key "${key}"${hint}` });
      }
      continue;
    }
    problems.push({ file, path, message: describe(issue) });
  }
  return problems;
}

function describe(issue: core.$ZodIssue): string {
  const got = `got ${showValue(issue.input)}`;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${NOUNS[issue.expected] ?? issue.expected}, ${got}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => showValue(value)).join(', ')}, ${got}`;
    case 'too_small':
    case 'too_big':
    case 'invalid_format':
    case 'custom':
      return `${lowerFirst(issue.message)}, ${got}`;
    case 'invalid_union':
      return `expected a command string or an array of strings, ${got}`;
    default:
      return `${lowerFirst(issue.message)}, ${got}`;
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
