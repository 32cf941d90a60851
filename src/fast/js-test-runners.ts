import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mochaTestMatcher, nodeTestMatcher, type TestMatcher } from './js-test-files.js';
import { readMochaConfig } from './read-mocha-config.js';

export interface RunnerFacts {
  isTest: TestMatcher;
  /** Files every run loads before the tests (`--require`, `--import`, mocha's `file`), as written, from the gate's directory. */
  setup: string[];
  /** The fast command for these test files, from the tier's. */
  narrow: (run: string[], targets: string[]) => string[];
}

export interface RunnerContext {
  cwd: string;
  nodeVersion: string;
  kindOf: (file: string) => 'file' | 'directory' | undefined;
}

/** What gate knows of each runner whose preset uses the js-imports tier: its tests and how to run only some. */
export const TEST_RUNNERS: Record<string, (context: RunnerContext) => RunnerFacts | { why: string }> = {
  'node-test': ({ cwd, nodeVersion }) => ({
    isTest: nodeTestMatcher(nodeVersion),
    setup: scriptSetup(cwd),
    // `node --test FILE…` runs exactly those files.
    narrow: (run) => run,
  }),
  mocha: ({ cwd, kindOf }) => {
    const config = readMochaConfig(cwd);
    if ('why' in config) return config;
    const isTest = mochaTestMatcher(config.files, kindOf);
    if (!isTest) return { why: `${config.specFrom ?? 'the mocha config'} has a spec outside the gate's directory` };
    const specFrom = config.specFrom;
    return {
      isTest,
      setup: [...config.setup, ...scriptSetup(cwd)],
      // Mocha adds a config's spec to the files on the command line (no option replaces it): an
      // ignore pattern that matches every file but these leaves only them.
      narrow: (run, targets) => (specFrom ? run.flatMap((word) => (word === '{files}' ? ['--ignore', onlyThese(targets), word] : [word])) : run),
    };
  },
};

function onlyThese(targets: string[]): string {
  return targets.length === 1 ? `!${targets[0]}` : `!{${targets.join(',')}}`;
}

const SETUP_FLAG = /^(?:--require|-r|--import|--loader|--experimental-loader|--file)(?:=(.+))?$/;

/** The files the package.json test script loads before the tests. */
function scriptSetup(cwd: string): string[] {
  let script: unknown;
  try {
    script = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'))?.scripts?.test;
  } catch {
    return [];
  }
  return typeof script === 'string' ? setupInScript(script) : [];
}

/** `--require X`, `-r X`, `--import=X`, `--loader X`, mocha's `--file X` in a script: the Xs. */
export function setupInScript(script: string): string[] {
  const words = script.split(/\s+/).map((word) => word.replace(/^(['"])(.*)\1$/, '$2'));
  return words.flatMap((word, index) => {
    const match = SETUP_FLAG.exec(word);
    if (!match) return [];
    return [match[1] ?? words[index + 1] ?? ''].filter(Boolean);
  });
}
