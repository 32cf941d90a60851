import { dirname } from 'node:path';

export interface CargoMember {
  id: string;
  name: string;
  /** Absolute: the folder of its Cargo.toml. */
  dir: string;
  /** Its path dependencies' folders; `dev`: only its tests, examples and benches use it. */
  deps: Array<{ dir: string; dev: boolean }>;
}

export interface CargoWorkspace {
  root: string;
  members: CargoMember[];
}

/**
 * `cargo metadata --format-version 1 --no-deps` output
 * (https://doc.rust-lang.org/cargo/commands/cargo-metadata.html#json-format). Throws when its shape is not that.
 */
export function parseCargoMetadata(text: string): CargoWorkspace {
  const data = record(JSON.parse(text));
  const root = data.get('workspace_root');
  if (typeof root !== 'string') throw new Error('no workspace_root');
  const memberIds = new Set(strings(data.get('workspace_members')));
  const packages: unknown = data.get('packages');
  const members = (Array.isArray(packages) ? packages : []).map(toMember).filter((member) => memberIds.has(member.id));
  return { root, members };
}

function toMember(value: unknown): CargoMember {
  const fields = record(value);
  const id = fields.get('id');
  const name = fields.get('name');
  const manifest = fields.get('manifest_path');
  if (typeof id !== 'string' || typeof name !== 'string' || typeof manifest !== 'string') throw new Error('a package without id, name or manifest_path');
  const dependencies = fields.get('dependencies');
  const deps = (Array.isArray(dependencies) ? dependencies : []).flatMap((dependency) => {
    const dep = record(dependency);
    const path = dep.get('path');
    return typeof path === 'string' ? [{ dir: path, dev: dep.get('kind') === 'dev' }] : [];
  });
  return { id, name, dir: dirname(manifest), deps };
}

function record(value: unknown): Map<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
  return new Map(Object.entries(value));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
