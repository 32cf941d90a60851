import { writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { ensureStateDir } from '../state/state-files.js';
import { listSources, readModuleFiles } from './js-imports.js';
import { buildModuleGraph, reachedFrom } from './js-module-graph.js';
import { isJsFile, isRecord, type ModuleFiles } from './resolve-js-import.js';
import { stripJsComments } from './strip-js-comments.js';
import { readJsonc } from './js-aliases.js';

const MAX_MODULES = 20_000;
// Past this share of the program the incremental check of all of it costs about the same.
const WORTH_IT = 0.5;
// What makes a file's declarations reach files that don't import it.
const GLOBAL_REACH = /\bdeclare\s+(?:global|module|namespace)\b|^\s*\/\/\/\s*<reference\b/m;
const MODULE_SYNTAX = /^\s*(?:import|export)\b/m;

export type TscSubset = { tsconfig: string; files: number; of: number } | { why: string };

/**
 * The files whose diagnostics a change can alter — those that import it, directly or not, by the
 * names they use through barrels (see js-module-graph.ts), plus every declaration file and script
 * of the program (their globals reach everything) — as a tsconfig that extends the project's and
 * lists them. tsc checks what they import too, so nothing they depend on goes unchecked; a file
 * left out can't see the change. Written to `cacheDir`; a reason instead where that can't be trusted.
 */
export function planTscSubset(cwd: string, changed: string[], cacheDir: string): TscSubset {
  const files = readModuleFiles();
  const tsconfig = join(cwd, 'tsconfig.json');
  const config = readConfigChain(tsconfig, files);
  if ('why' in config) return config;
  for (const file of changed) {
    if (files.kind(resolve(cwd, file)) !== 'file') return { why: `${file} was deleted` };
    if (!isJsFile(file) || /\.d\.[cm]?ts$/.test(file)) return { why: `${file} is not a TypeScript module` };
    const text = stripJsComments(files.read(resolve(cwd, file)) ?? '');
    if (!MODULE_SYNTAX.test(text)) return { why: `${file} is a script: its declarations are global` };
    if (GLOBAL_REACH.test(files.read(resolve(cwd, file)) ?? '')) return { why: `${file} declares globals or augments a module` };
  }
  // tsc looks a `types` entry up in the type roots, then in node_modules from the tsconfig's folder:
  // from gate's state that is not the project's (a workspace package's own node_modules).
  const typeRoots = typeRootsFrom(cwd, files);
  // "*" (TypeScript 6+): every package in the type roots, which the subset names.
  const unfound = config.types?.find((name) => name !== '*' && !typeRoots.some((root) => files.kind(join(root, name)) === 'directory'));
  if (unfound !== undefined) return { why: `"types" names ${unfound}, which is not in node_modules/@types` };
  const sources = listSources(cwd);
  if (!sources) return { why: 'too many files to read' };
  const inProgram = programMatcher(config);
  const program = sources.filter(inProgram);
  // Real paths throughout, as the graph names modules.
  const root = files.realpath(cwd) ?? cwd;
  const absolute = (file: string) => resolve(root, file);
  const graph = buildModuleGraph(program.map(absolute), files, MAX_MODULES);
  if (!graph) return { why: `more than ${MAX_MODULES} modules` };
  // Types don't depend on what a module does as it loads: only the names through barrels count.
  const reached = reachedFrom(changed.map(absolute), graph, false);
  const globals = program.filter((file) => /\.d\.[cm]?ts$/.test(file) || !MODULE_SYNTAX.test(stripJsComments(files.read(absolute(file)) ?? '')));
  const roots = [...new Set([...program.filter((file) => reached.has(absolute(file))), ...globals])].sort();
  if (roots.length >= WORTH_IT * program.length) return { why: `the change reaches ${roots.length} of ${program.length} files` };
  // TypeScript 6+ takes the tsconfig's folder as rootDir, and checks that every file is under it when
  // paths of output are set: the subset's folder is gate's state, so it names the project's own.
  let rootDir: string | undefined;
  if (config.outputPaths && !config.rootDir) {
    const major = typescriptMajor(cwd, files);
    if (major === undefined) return { why: 'no node_modules/typescript: which TypeScript runs, and so its default rootDir, is unknown' };
    if (major >= 6) rootDir = root;
  }
  ensureStateDir(cacheDir);
  const path = join(cacheDir, 'tsconfig.subset.json');
  const generated = {
    extends: tsconfig,
    // composite asks that every file of the program be listed; the ones tsc pulls in through imports aren't.
    compilerOptions: { composite: false, ...(config.typeRoots ? {} : { typeRoots }), ...(rootDir === undefined ? {} : { rootDir }) },
    files: roots.map(absolute),
    include: [],
  };
  writeFileSync(path, `${JSON.stringify(generated, null, 2)}\n`);
  return { tsconfig: path, files: roots.length, of: program.length };
}

/** The major version of the TypeScript whose tsc the gate runs: the nearest node_modules/.bin/tsc's package. */
function typescriptMajor(cwd: string, files: ModuleFiles): number | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (files.kind(join(dir, 'node_modules', '.bin', 'tsc')) !== undefined) {
      const version = readJsonc(join(dir, 'node_modules', 'typescript', 'package.json'), files)?.['version'];
      return typeof version === 'string' && /^\d+\./.test(version) ? Number.parseInt(version, 10) : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** TypeScript's default type roots: every `node_modules/@types` from the project's folder up. */
function typeRootsFrom(cwd: string, files: ModuleFiles): string[] {
  const roots: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    const types = join(dir, 'node_modules', '@types');
    if (files.kind(types) === 'directory') roots.push(types);
    if (dirname(dir) === dir) return roots;
  }
}

interface ConfigChain {
  /** `include` and `exclude` as the chain sets them, made relative to the project's tsconfig; undefined exclude: tsc's default. */
  include: string[];
  exclude: string[] | undefined;
  /** outDir and declarationDir, which tsc's default exclude leaves out. */
  outputs: string[];
  typeRoots: boolean;
  /** Whether the chain sets rootDir, and any of the options that make tsc check files are under it. */
  rootDir: boolean;
  outputPaths: boolean;
  allowJs: boolean;
  /** compilerOptions.types, as the nearest config in the chain sets it. */
  types: string[] | undefined;
}

/** The include, exclude and whether typeRoots is set, through `extends`; a reason when the program's files can't be read that way. */
function readConfigChain(path: string, files: ModuleFiles, depth = 0): ConfigChain | { why: string } {
  const config = readJsonc(path, files);
  if (!config) return { why: `${relative(process.cwd(), path) || path} can't be read` };
  const options = isRecord(config['compilerOptions']) ? config['compilerOptions'] : {};
  if (Array.isArray(config['files']) && config['files'].length > 0) return { why: 'tsconfig.json lists "files"' };
  const parentPath = typeof config['extends'] === 'string' ? config['extends'] : undefined;
  if (Array.isArray(config['extends'])) return { why: 'tsconfig.json extends several configs' };
  let inherited: ConfigChain = { include: ['**/*'], exclude: undefined, outputs: [], typeRoots: false, rootDir: false, outputPaths: false, allowJs: false, types: undefined };
  // A package's tsconfig (`@tsconfig/node20`) sets options: the default include stands.
  if (parentPath?.startsWith('.')) {
    if (depth > 5) return { why: 'tsconfig.json extends too deep a chain' };
    const parentFile = resolve(dirname(path), parentPath.endsWith('.json') ? parentPath : `${parentPath}.json`);
    const parent = readConfigChain(parentFile, files, depth + 1);
    if ('why' in parent) return parent;
    const shift = (pattern: string) => posix.normalize(posix.join(relativeDir(dirname(path), dirname(parentFile)), pattern));
    inherited = { ...parent, include: parent.include.map(shift), exclude: parent.exclude?.map(shift), outputs: parent.outputs.map(shift) };
  }
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : undefined);
  const outputs = ['outDir', 'declarationDir'].flatMap((key) => (typeof options[key] === 'string' ? [posix.normalize(options[key] as string)] : []));
  return {
    include: strings(config['include']) ?? inherited.include,
    exclude: strings(config['exclude']) ?? inherited.exclude,
    outputs: outputs.length > 0 ? outputs : inherited.outputs,
    typeRoots: inherited.typeRoots || options['typeRoots'] !== undefined,
    rootDir: inherited.rootDir || options['rootDir'] !== undefined,
    outputPaths: inherited.outputPaths || ['outDir', 'declarationDir', 'sourceRoot', 'mapRoot'].some((key) => options[key] !== undefined),
    allowJs: typeof options['allowJs'] === 'boolean' ? options['allowJs'] : inherited.allowJs,
    types: strings(options['types']) ?? inherited.types,
  };
}

function relativeDir(from: string, to: string): string {
  return relative(from, to).split(sep).join('/') || '.';
}

/** Whether a file (relative to the project's folder) is one tsc's include and exclude take. */
function programMatcher(config: ConfigChain): (file: string) => boolean {
  // A pattern without a wildcard or extension names a folder: everything under it.
  const widen = (pattern: string) => {
    const clean = pattern.replace(/^\.\//, '').replace(/\/$/, '');
    return picomatch.scan(clean).isGlob || /\.[cm]?[jt]sx?$/.test(clean) ? clean : `${clean}/**/*`;
  };
  const include = picomatch(config.include.map(widen), { dot: false });
  const excluded = config.exclude ?? ['node_modules', 'bower_components', 'jspm_packages', ...config.outputs];
  const exclude = picomatch([...excluded.map(widen), '**/node_modules/**'], { dot: true });
  const typescript = /\.(?:ts|tsx|mts|cts)$/;
  return (file) => (config.allowJs || typescript.test(file)) && include(file) && !exclude(file);
}

