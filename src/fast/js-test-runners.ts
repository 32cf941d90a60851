import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MochaFiles, mochaTestMatcher, nodeTestMatcher, type TestMatcher } from './js-test-files.js';
import { splitMochaArgv, withFilesForSpec } from './mocha-argv.js';
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
  /** The gate's full command, when it is an argv: mocha's may name the spec (a project's script's, written by init). */
  command?: readonly string[];
}

/** What gate knows of each runner whose preset uses the js-imports tier: its tests and how to run only some. */
export const TEST_RUNNERS: Record<string, (context: RunnerContext) => RunnerFacts | { why: string }> = {
  'node-test': ({ cwd, nodeVersion }) => ({
    isTest: nodeTestMatcher(nodeVersion),
    setup: scriptSetup(cwd),
    // `node --test FILE…` runs exactly those files.
    narrow: (run) => run,
  }),
  mocha: ({ cwd, kindOf, command }) => {
    const config = readMochaConfig(cwd);
    if ('why' in config) return config;
    const cli = mochaCommandLine(command);
    const specFrom = config.specFrom;
    // A spec on the command line joins the config's (mocha's default `./test` counts only without either).
    const files = cli ? { ...config.files, spec: [...(specFrom ? config.files.spec : []), ...cli.spec], ...cli.files(config.files) } : config.files;
    const isTest = mochaTestMatcher(files, kindOf);
    if (!isTest) return { why: `${cli ? 'the gate\'s command' : (specFrom ?? 'the mocha config')} has a spec outside the gate's directory` };
    return {
      isTest,
      setup: [...config.setup, ...(cli?.setup ?? []), ...scriptSetup(cwd)],
      // Mocha adds a config's spec to the files on the command line (no option replaces it): an
      // ignore pattern that matches every file but these leaves only them. A command's own spec is
      // replaced by the files, its options kept.
      narrow: (run, targets) => {
        const base = cli && command ? withFilesForSpec(command) : run;
        return specFrom ? base.flatMap((word) => (word === '{files}' ? ['--ignore', onlyThese(targets), word] : [word])) : base;
      },
    };
  },
};

/** The spec and the options that choose or load test files on a gate's `mocha …` command; undefined without a spec there. */
function mochaCommandLine(command: readonly string[] | undefined) {
  if (!command || !/(?:^|\/)mocha$/.test(command[0] ?? '')) return undefined;
  const { options, spec } = splitMochaArgv(command.slice(1));
  if (spec.length === 0) return undefined;
  const values = (...names: string[]) => options.flatMap(([word = '', value]) => {
    const name = word.replace(/=.*$/, '');
    if (!names.includes(name)) return [];
    return [value ?? word.slice(name.length + 1)].filter(Boolean);
  });
  const extension = values('--extension').flatMap((value) => value.split(','));
  const ignore = values('--ignore', '--exclude');
  const recursive = options.some(([word]) => word === '--recursive');
  return {
    spec,
    setup: values('--require', '-r', '--file', '--import', '--loader'),
    files: (from: MochaFiles): Partial<MochaFiles> => ({
      ...(extension.length > 0 ? { extension: [...from.extension, ...extension] } : {}),
      ...(recursive ? { recursive: true } : {}),
      ...(ignore.length > 0 ? { ignore: [...from.ignore, ...ignore] } : {}),
    }),
  };
}

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
