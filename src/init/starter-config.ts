import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

export interface StarterGate {
  name: string;
  preset: string;
}

/**
 * The config init writes, from templates/gate.config.json: one gate per line so that a reviewer
 * reads the whole list at a glance. Without a local install there is no schema file to point at.
 */
export function renderStarterConfig(gates: StarterGate[], schemaRef: string | undefined, template = readTemplate()): string {
  const { $schema: _schema, gates: _gates, ...rest } = template;
  const head = [...(schemaRef ? [`"$schema": ${JSON.stringify(schemaRef)}`] : []), ...Object.entries(rest).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)];
  const list = gates.map((gate) => `    { "name": ${JSON.stringify(gate.name)}, "preset": ${JSON.stringify(gate.preset)} }`);
  const gatesText = list.length === 0 ? '"gates": []' : `"gates": [\n${list.join(',\n')}\n  ]`;
  return `{\n${[...head, gatesText].map((line) => `  ${line}`).join(',\n')}\n}\n`;
}

function readTemplate(): Record<string, unknown> {
  const value: unknown = JSON.parse(readFileSync(join(packageRoot(), 'templates', 'gate.config.json'), 'utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('templates/gate.config.json must hold an object');
  return Object.fromEntries(Object.entries(value));
}
