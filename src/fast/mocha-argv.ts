// Mocha's command line read as mocha reads it: its options (with the values some take) and the spec
// — the files, directories and globs named as operands or with `--spec`. Where a project keeps its
// spec in a script (graphql-js: `mocha --full-trace src/**/__tests__/**/*-test.ts` in "testonly")
// rather than in .mocharc, the gate's command carries it. https://mochajs.org/#command-line-usage

// Options that take a value (the next word, unless written `--name=value`); every other is a switch.
const WITH_VALUE = new Set([
  '--config', '--package', '--opts', '--reporter', '-R', '--reporter-option', '--reporter-options', '-O', '--ui', '-u',
  '--timeout', '--timeouts', '-t', '--slow', '-s', '--retries', '--grep', '-g', '--fgrep', '-f', '--require', '-r', '--file',
  '--ignore', '--exclude', '--extension', '--spec', '--jobs', '-j', '--node-option', '-n', '--watch-files', '--watch-ignore',
  '--global', '--globals', '--import', '--loader',
]);
// What a gate's run leaves out of a script's: another reporter (the filter reads the spec reporter's) and watching.
const NOT_FOR_A_GATE = new Set(['--reporter', '-R', '--reporter-option', '--reporter-options', '-O', '--watch', '-w', '--watch-files', '--watch-ignore']);

export interface MochaArgv {
  /** The options, each with its value, in order. */
  options: string[][];
  /** The spec: operands and `--spec` values. */
  spec: string[];
}

/** Mocha's arguments (the program's name left out) split into options and spec. */
export function splitMochaArgv(args: readonly string[]): MochaArgv {
  const options: string[][] = [];
  const spec: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] ?? '';
    if (word === '--') {
      spec.push(...args.slice(index + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      spec.push(word);
      continue;
    }
    const [name = '', value] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    const taken = value === undefined && WITH_VALUE.has(name) && index + 1 < args.length ? args[++index] : undefined;
    if (name === '--spec') spec.push(value ?? taken ?? '');
    else options.push(taken === undefined ? [word] : [word, taken]);
  }
  return { options, spec: spec.filter(Boolean) };
}

/** A gate's command from a script's mocha arguments: the same options and spec, without another reporter or watching. */
export function gateArgv(args: readonly string[]): string[] {
  const { options, spec } = splitMochaArgv(args);
  const kept = options.filter(([word = '']) => !NOT_FOR_A_GATE.has(word.replace(/=.*$/, '')));
  return ['mocha', ...kept.flat(), ...spec];
}

/** The fast command for some test files: the gate's own command (`mocha` and its options) with the files in place of its spec. */
export function withFilesForSpec(command: readonly string[]): string[] {
  const { options } = splitMochaArgv(command.slice(1));
  return [command[0] ?? 'mocha', ...options.flat(), '{files}'];
}
