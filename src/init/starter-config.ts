import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package/package-root.js';

/** A gate init writes: a preset, or a command of the package's own (its test script). */
export type StarterGate = { name: string; preset: string; run?: string[] } | { name: string; run: string[] };

export interface ConfigShape {
  /** The root config of a workspace: `"workspaces": KIND`. */
  workspaces?: string;
  /** A package's config: only gates, since stop-wide keys count in the root config alone. */
  nested?: boolean;
}

/**
 * The config init writes, from templates/gate.config.json: one gate per line so that a reviewer
 * reads the whole list at a glance. Without a local install there is no schema file to point at.
 */
export function renderStarterConfig(gates: StarterGate[], schemaRef: string | undefined, template = readTemplate(), shape: ConfigShape = {}): string {
  const { $schema: _schema, gates: _gates, ...rest } = template;
  const settings = shape.nested ? {} : { ...rest, ...(shape.workspaces !== undefined && { workspaces: shape.workspaces }) };
  const head = [...(schemaRef ? [`"$schema": ${JSON.stringify(schemaRef)}`] : []), ...Object.entries(settings).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)];
  const list = gates.map((gate) => renderGate(gate));
  const gatesText = list.length === 0 ? '"gates": []' : `"gates": [\n${list.join(',\n')}\n  ]`;
  return `{\n${[...head, gatesText].map((line) => `  ${line}`).join(',\n')}\n}\n`;
}

// Prettier's width: a gate on one line longer than this is written the way prettier would break it,
// so that a project that checks its JSON with prettier stays formatted.
const WIDTH = 80;

function renderGate(gate: StarterGate): string {
  const fields: Array<[string, string | string[]]> = [['name', gate.name], ...('preset' in gate ? [['preset', gate.preset] as [string, string]] : []), ...(gate.run ? [['run', gate.run] as [string, string[]]] : [])];
  const value = (item: string | string[]) => (typeof item === 'string' ? JSON.stringify(item) : `[${item.map((word) => JSON.stringify(word)).join(', ')}]`);
  const line = `    { ${fields.map(([key, item]) => `"${key}": ${value(item)}`).join(', ')} }`;
  if (line.length + 1 <= WIDTH) return line;
  const field = ([key, item]: [string, string | string[]]) => {
    const flat = `      "${key}": ${value(item)}`;
    if (typeof item === 'string' || flat.length + 1 <= WIDTH) return flat;
    return `      "${key}": [\n${item.map((word) => `        ${JSON.stringify(word)}`).join(',\n')}\n      ]`;
  };
  return `    {\n${fields.map(field).join(',\n')}\n    }`;
}

function readTemplate(): Record<string, unknown> {
  const value: unknown = JSON.parse(readFileSync(join(packageRoot(), 'templates', 'gate.config.json'), 'utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('templates/gate.config.json must hold an object');
  return Object.fromEntries(Object.entries(value));
}
