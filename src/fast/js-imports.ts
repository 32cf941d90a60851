import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fullRunFirst, type FastPlan, type Planner } from './planner.js';
import { TEST_RUNNERS } from './js-test-runners.js';
import { buildModuleGraph } from './js-module-graph.js';
import { findReachingTests } from './reaching-tests.js';
import { isJsFile, type ModuleFiles, resolvePath } from './resolve-js-import.js';

const MAX_FILES = 100_000;
const MAX_MODULES = 20_000;
// A test file name the runner could read as a glob (mocha's --ignore, node --test on Node 21+).
const PLAIN_NAME = /^[\w./@+ -]+$/;

/**
 * mocha and `node --test`, which have no related-test selection of their own: the changed test
 * files and the tests that import a changed module, directly or not, by a static import graph.
 * Where that graph can't be trusted (a config or setup file, a deleted or non-JS file, an import
 * gate can't resolve on the way to a test) the full run.
 */
export const planJsImports: Planner = async (input): Promise<FastPlan> => {
  const full = fullRunFirst(input, 'run');
  if (full) return full;
  const { gate, files } = input;
  const moduleFiles = readModuleFiles();
  const absolute = (file: string) => resolve(gate.cwd, file);
  const shown = (file: string) => relative(gate.cwd, file).split(sep).join('/');
  const deleted = files.find((file) => moduleFiles.kind(absolute(file)) !== 'file');
  if (deleted) return { kind: 'full', why: `${deleted} was deleted: what imported it can't be read any more` };
  const foreign = files.find((file) => !isJsFile(file));
  if (foreign) return { kind: 'full', why: `${foreign} is not JavaScript or TypeScript: the import graph can't follow it` };
  const runner = gate.preset === undefined ? undefined : TEST_RUNNERS[gate.preset];
  if (!runner) return { kind: 'full', why: `js-imports knows the test files of ${Object.keys(TEST_RUNNERS).join(' and ')}, not of ${gate.preset ?? 'this gate'}` };
  const facts = runner({ cwd: gate.cwd, nodeVersion: process.versions.node, kindOf: (file) => moduleFiles.kind(absolute(file)), ...(Array.isArray(gate.run) ? { command: gate.run } : {}) });
  if ('why' in facts) return { kind: 'full', why: facts.why };
  const sources = listSources(gate.cwd);
  if (!sources) return { kind: 'full', why: `more than ${MAX_FILES} files to look through` };
  const setup = facts.setup.flatMap((entry) => resolvePath(absolute(entry), moduleFiles));
  const tests = sources.filter((file) => facts.isTest(file)).map(absolute);
  const graph = buildModuleGraph([...tests, ...setup], moduleFiles, MAX_MODULES);
  if (!graph) return { kind: 'full', why: `more than ${MAX_MODULES} modules to follow` };
  const reach = findReachingTests({ tests, setup, changed: files.map(absolute), graph });
  const what = files.length === 1 ? files[0] : `${files.length} changed files`;
  if (reach.kind === 'setup') {
    const via = reach.changed === reach.setup ? '' : `, which imports ${shown(reach.changed)}`;
    return { kind: 'full', why: `${shown(reach.setup)} loads before every test${via}` };
  }
  if (reach.kind === 'unknown') return { kind: 'full', why: `${shown(reach.test)} reaches ${shown(reach.module)}, which ${reach.why}` };
  if (reach.tests.length === 0) return { kind: 'none', why: `no test imports ${what}` };
  const targets = reach.tests.map(shown);
  const odd = targets.find((target) => !PLAIN_NAME.test(target));
  if (odd) return { kind: 'full', why: `the test file name ${odd} would be read as a pattern` };
  const run = facts.narrow(gate.tier.run, targets);
  if (targets.every((target) => files.includes(target))) return { kind: 'fast', run, targets, why: `only the changed test file${targets.length === 1 ? '' : 's'}` };
  const count = targets.length === 1 ? '1 test file that imports' : `${targets.length} test files that import`;
  return { kind: 'fast', run, targets, why: `${count} ${what}` };
};

/** The file system as the resolver sees it, each answer kept: a graph asks about the same paths often. */
export function readModuleFiles(): ModuleFiles {
  const kinds = new Map<string, 'file' | 'directory' | undefined>();
  return {
    kind: (path) => {
      if (!kinds.has(path)) {
        const stat = statSync(path, { throwIfNoEntry: false });
        kinds.set(path, stat?.isFile() ? 'file' : stat?.isDirectory() ? 'directory' : undefined);
      }
      return kinds.get(path);
    },
    read: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
    realpath: (path) => {
      try {
        return realpathSync(path);
      } catch {
        return undefined;
      }
    },
  };
}

/** The JavaScript and TypeScript files (or those `wanted` names) under the gate's directory (node_modules and .git left out), `/`-separated. */
export function listSources(cwd: string, wanted: (name: string) => boolean = isJsFile): string[] | undefined {
  const found: string[] = [];
  const pending = [''];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries;
    try {
      entries = readdirSync(join(cwd, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== '.git') pending.push(path);
      } else if (wanted(entry.name)) {
        found.push(path);
        if (found.length > MAX_FILES) return undefined;
      }
    }
  }
  return found;
}
