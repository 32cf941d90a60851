import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { argumentsOf, goModulePath, parseGoModFile, type GoDirective } from './parse-go-mod.js';
import { readTextFile } from './read-text-file.js';
import { WorkspaceError } from './workspace-error.js';
import type { WorkspaceGraph, WorkspacePackage } from './graph-types.js';

/**
 * go.work: each `use`d module with its go.mod's module path; a `require` of another used module's
 * path is an edge. (A module may import a workspace module it does not require, and go.work
 * lets that build; such an import is no edge here.) A module at the root or outside it is no member.
 */
export function readGoWorkspace(root: string): WorkspaceGraph {
  const work = readDirectives(root, 'go.work', `does not exist at ${root}, so there is no Go workspace to read; create it with go work init, or set "workspaces" to the kind this repo uses`);
  const dirs = [...new Set(argumentsOf(work, 'use').map((use) => memberDir(root, use)))].filter((dir) => dir !== undefined).sort();
  const modules = dirs.map((dir) => {
    const file = `${dir}/go.mod`;
    const mod = readDirectives(root, file, `does not exist, yet go.work uses ${dir}; create the module (cd ${dir} && go mod init) or remove it from go.work`);
    const path = goModulePath(mod);
    if (path === undefined) throw new WorkspaceError(file, 'has no module directive; add one, e.g. module example.com/name');
    return { dir, path, requires: argumentsOf(mod, 'require') };
  });
  const byPath = new Map<string, string>();
  for (const { dir, path } of modules) {
    const other = byPath.get(path);
    if (other !== undefined) throw new WorkspaceError('go.work', `uses ${other} and ${dir}, which are both module ${path}; give each module its own path in its go.mod`);
    byPath.set(path, dir);
  }
  const packages: WorkspacePackage[] = modules.map(({ dir, path, requires }) => {
    const dependsOn = requires.flatMap((required) => {
      const target = byPath.get(required);
      return target !== undefined && target !== dir ? [target] : [];
    });
    return { dir, name: path, dependsOn: [...new Set(dependsOn)].sort() };
  });
  return { kind: 'go', root, packages };
}

function readDirectives(root: string, file: string, missing: string): GoDirective[] {
  const text = readTextFile(root, file);
  if (text === undefined) throw new WorkspaceError(file, missing);
  try {
    return parseGoModFile(text);
  } catch (error) {
    throw new WorkspaceError(file, `${error instanceof Error ? error.message : String(error)}; fix the syntax (go mod edit -fmt rewrites it when go can read it)`);
  }
}

function memberDir(root: string, use: string): string | undefined {
  const absolute = isAbsolute(use) ? use : resolve(root, use);
  const dir = relative(root, absolute).split(sep).join(posix.sep);
  return dir === '' || dir === '..' || dir.startsWith('../') || isAbsolute(dir) ? undefined : dir;
}
