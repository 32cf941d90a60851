import { DEPENDENCY_FIELDS, type NpmManifest } from './link-npm-packages.js';
import { readJsonFile } from './read-text-file.js';
import { WorkspaceError } from './workspace-error.js';

/** Each member dir's package.json: its name and the dependencies of every kind. */
export function readNpmManifests(root: string, dirs: string[]): NpmManifest[] {
  return dirs.map((dir) => {
    const file = `${dir}/package.json`;
    const data = readJsonFile(root, file);
    if (!isRecord(data)) throw new WorkspaceError(file, 'is not a JSON object; a package.json holds an object with the package\'s name and dependencies');
    const name = typeof data['name'] === 'string' && data['name'].trim() !== '' ? data['name'].trim() : undefined;
    const dependencies: Array<[string, string]> = [];
    for (const field of DEPENDENCY_FIELDS) {
      const value = data[field];
      if (!isRecord(value)) continue;
      for (const [dependency, spec] of Object.entries(value)) dependencies.push([dependency, typeof spec === 'string' ? spec : '']);
    }
    return { dir, name, dependencies };
  });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
