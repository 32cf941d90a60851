import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface PytestConfig {
  /** The config file the full run reads (absolute), if any. */
  file: string | undefined;
  /** The full run's rootdir (absolute). */
  rootdir: string;
  /** `testpaths`, relative to the rootdir, when the full run uses them (it runs in the rootdir). */
  testpaths: string[];
  norecursedirs: string[];
  doctestModules: boolean;
  doctestGlobs: string[];
  /** `-p no:NAME` plugins. */
  disabled: string[];
  /** A setting that changes which files pytest collects in a way gate does not follow. */
  unsure: string | undefined;
}

// In pytest's order within a folder (https://docs.pytest.org/en/stable/reference/customize.html).
const CONFIG_FILES: Array<[string, RegExp | undefined]> = [
  ['pytest.toml', undefined],
  ['.pytest.toml', undefined],
  ['pytest.ini', undefined],
  ['.pytest.ini', undefined],
  ['pyproject.toml', /^\[tool\.pytest(?:\.ini_options)?\]\s*$/m],
  ['tox.ini', /^\[pytest\]\s*$/m],
  ['setup.cfg', /^\[tool:pytest\]\s*$/m],
];
export const CONFIG_NAMES = [...CONFIG_FILES.map(([name]) => name), 'setup.py'];
const SECTION = /^\[(?:pytest|tool:pytest|tool\.pytest(?:\.ini_options)?)\]\s*$/m;
const DEFAULT_NORECURSE = ['*.egg', '.*', '_darcs', 'build', 'CVS', 'dist', 'node_modules', 'venv', '{arch}'];
// Options that pick the config, the rootdir or the collected files in ways gate does not follow.
const UNSURE_OPTIONS = /^(?:-c|--config-file|--rootdir|--confcutdir|-o|--override-ini)(?:=|$)|python_files/;

/** The pytest configuration the full run (`pytest` with no arguments, in `cwd`) would read. */
export function readPytestConfig(cwd: string, envAddopts: string | undefined): PytestConfig {
  const found = locateConfig(cwd);
  const section = found ? sectionOf(found.text) : '';
  const addopts = [...words(readKey(section, 'addopts') ?? ''), ...words(envAddopts ?? '')];
  const rootdir = found ? dirname(found.file) : (ancestors(cwd).find((dir) => existsSync(join(dir, 'setup.py'))) ?? cwd);
  const plugins = optionValues(addopts, '-p');
  const globs = optionValues(addopts, '--doctest-glob');
  const loaded = plugins.find((name) => !name.startsWith('no:'));
  const unsureOption = addopts.find((word) => UNSURE_OPTIONS.test(word));
  const plugin = ['pyproject.toml', 'setup.cfg', 'setup.py'].find((name) => readText(join(cwd, name))?.includes('pytest11'));
  const unsure =
    readKey(section, 'python_files') !== undefined
      ? 'the pytest config sets python_files'
      : unsureOption
        ? `pytest's options include ${unsureOption}`
        : loaded
          ? `pytest's options load the plugin ${loaded} with -p`
          : plugin
            ? `${plugin} registers a pytest plugin (pytest11) that every test loads`
            : undefined;
  return {
    file: found?.file,
    rootdir,
    testpaths: rootdir === cwd ? words(readKey(section, 'testpaths') ?? '') : [],
    norecursedirs: words(readKey(section, 'norecursedirs') ?? DEFAULT_NORECURSE.join(' ')),
    doctestModules: addopts.includes('--doctest-modules'),
    doctestGlobs: globs.length > 0 ? globs : ['test*.txt'],
    disabled: plugins.filter((name) => name.startsWith('no:')).map((name) => name.slice(3)),
    unsure,
  };
}

function locateConfig(cwd: string): { file: string; text: string } | undefined {
  let fallback: { file: string; text: string } | undefined;
  for (const dir of ancestors(cwd)) {
    for (const [name, marker] of CONFIG_FILES) {
      const file = join(dir, name);
      const text = readText(file);
      if (text === undefined) continue;
      if (!marker || marker.test(text)) return { file, text };
      // pytest 8.1+: the nearest pyproject.toml is the config file when nothing else is.
      if (name === 'pyproject.toml') fallback ??= { file, text: '' };
    }
  }
  return fallback;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function ancestors(dir: string): string[] {
  const list = [dir];
  for (let parent = dirname(dir); parent !== list.at(-1); parent = dirname(parent)) list.push(parent);
  return list;
}

/** The pytest section's text: from its header to the next header. */
export function sectionOf(text: string): string {
  const header = SECTION.exec(text);
  if (!header) return '';
  const body = text.slice(header.index + header[0].length);
  const next = /^\[\[?[^\]\n]*\]\]?\s*$/m.exec(body);
  return next ? body.slice(0, next.index) : body;
}

/** A key's raw value in an ini or TOML section, continuation lines included; undefined when absent. */
export function readKey(section: string, key: string): string | undefined {
  const lines = section.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^\\s*${key}\\s*=`).test(line));
  if (start === -1) return undefined;
  const value = [(lines[start] ?? '').replace(/^[^=]*=/, '')];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s/.test(line) && !/^\s*[\]'"]/.test(line)) break;
    value.push(line);
  }
  return value.join('\n');
}

/** A TOML array's strings, or the words of a TOML string or an ini value (split like a shell would). */
export function words(value: string): string[] {
  const text = value.trim();
  if (text.startsWith('[')) return [...text.matchAll(/"([^"]*)"|'([^']*)'/g)].map((match) => match[1] ?? match[2] ?? '').filter(Boolean);
  const string = /^(?:"([^"]*)"|'([^']*)')$/.exec(text);
  const line = string ? (string[1] ?? string[2] ?? '') : text;
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '').filter(Boolean);
}

function optionValues(args: string[], option: string): string[] {
  return args.flatMap((word, index) => {
    if (word === option) return args[index + 1] !== undefined ? [args[index + 1] ?? ''] : [];
    if (word.startsWith(`${option}=`)) return [word.slice(option.length + 1)];
    if (option.length === 2 && word.startsWith(option) && word.length > 2 && !word.startsWith('--')) return [word.slice(2)];
    return [];
  });
}
