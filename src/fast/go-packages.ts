import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fullRunFirst, type FastPlan, type Planner } from './planner.js';
import { parseGoList, type GoPackage } from './parse-go-list.js';
import { listNames, reachDependents } from './reach-dependents.js';
import { runTool } from './run-tool.js';

const FIELDS = 'ImportPath,Dir,Imports,TestImports,XTestImports,EmbedFiles,TestEmbedFiles,XTestEmbedFiles,Error';
// A directory whose files are all for another OS or build tag: `go test ./...` skips it too.
const EXCLUDED = /build constraints exclude all Go files/;

/**
 * go test / go vet: the packages holding the changed files and every package whose code imports
 * them, transitively, plus those whose tests import any of these — from one `go list` over `./...`.
 */
export const planGoPackages: Planner = async (input) => {
  const full = fullRunFirst(input, 'package');
  if (full) return full;
  const { gate, files } = input;
  const root = realRoot(gate.cwd);
  // GOPROXY=off: planning never downloads; a module missing from the cache makes go list report
  // an error, and that means the full run.
  const listed = await runTool(gate, 'go', ['list', '-e', `-json=${FIELDS}`, './...'], { GOPROXY: 'off', PWD: root });
  if (!listed.ok) return { kind: 'full', why: `${listed.problem}, so the packages the change reaches are unknown` };
  let packages: GoPackage[];
  try {
    packages = parseGoList(listed.stdout).filter((pkg) => !EXCLUDED.test(pkg.error ?? ''));
  } catch (error) {
    return { kind: 'full', why: `go list printed what gate could not read (${error instanceof Error ? error.message : String(error)})` };
  }
  return selectPackages(root, files, packages, gate.tier.run);
};

export function selectPackages(root: string, files: string[], packages: GoPackage[], run: string[]): FastPlan {
  if (packages.length === 0) return { kind: 'full', why: 'go list found no package under ./...' };
  const byDir = new Map(packages.map((pkg) => [pkg.dir, pkg]));
  const changed = new Set<GoPackage>();
  const testsChanged = new Set<GoPackage>();
  for (const file of files) {
    const owner = ownerOf(root, file, byDir);
    if (!owner) return { kind: 'full', why: `${file} is in no package go list knows of (a deleted package, or a folder go ignores)` };
    (owner.testOnly ? testsChanged : changed).add(owner.pkg);
  }
  // A package that doesn't parse may import the change without go list saying so.
  const broken = packages.find((pkg) => pkg.error !== undefined && !changed.has(pkg) && !testsChanged.has(pkg));
  if (broken) return { kind: 'full', why: `go list reports a problem in ${target(root, broken)}: ${broken.error}` };

  const importers = indexBy(packages, (pkg) => pkg.imports);
  const testImporters = indexBy(packages, (pkg) => pkg.testImports);
  const reached = reachDependents(changed, (pkg) => importers.get(pkg.importPath));
  const tested = new Set([...reached, ...testsChanged]);
  for (const pkg of reached) for (const tester of testImporters.get(pkg.importPath) ?? []) tested.add(tester);
  if (tested.size === packages.length) return { kind: 'full', why: packages.length === 1 ? 'a single package: nothing to narrow' : `all ${packages.length} packages reach the change` };
  const targets = [...tested].map((pkg) => target(root, pkg)).sort();
  const count = targets.length === 1 ? `only 1 of ${packages.length} packages` : `only ${targets.length} of ${packages.length} packages`;
  return { kind: 'fast', run, targets, why: `${count}: ${listNames(targets)} (the changed ones and those that import them)` };
}

// testdata/ belongs to the package above it, and only its tests read it; an embedded file to the
// package that embeds it.
function ownerOf(root: string, file: string, byDir: Map<string, GoPackage>): { pkg: GoPackage; testOnly: boolean } | undefined {
  const segments = file.split('/');
  const testdata = segments.indexOf('testdata');
  if (testdata >= 0) {
    const pkg = byDir.get(resolve(root, ...segments.slice(0, testdata)));
    return pkg && { pkg, testOnly: true };
  }
  const path = resolve(root, file);
  const own = byDir.get(dirname(path));
  if (own) return { pkg: own, testOnly: file.endsWith('_test.go') };
  for (let dir = dirname(dirname(path)); dir.startsWith(root); dir = dirname(dir)) {
    const pkg = byDir.get(dir);
    if (pkg?.embeds.includes(relative(dir, path).split(sep).join('/'))) return { pkg, testOnly: false };
    if (dir === root) break;
  }
  return undefined;
}

function indexBy(packages: GoPackage[], edges: (pkg: GoPackage) => string[]): Map<string, GoPackage[]> {
  const index = new Map<string, GoPackage[]>();
  for (const pkg of packages) {
    for (const path of edges(pkg)) {
      const list = index.get(path);
      if (list) list.push(pkg);
      else index.set(path, [pkg]);
    }
  }
  return index;
}

function target(root: string, pkg: GoPackage): string {
  const path = relative(root, pkg.dir);
  if (path === '') return '.';
  return path.startsWith('..') || isAbsolute(path) ? pkg.importPath : `./${path.split(sep).join('/')}`;
}

function realRoot(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return join(cwd);
  }
}
