import { z } from 'zod';
import { configSchema } from './schema.js';

/** The JSON Schema shipped as schema.json, generated from the same zod schema that validates. */
export function configJsonSchema(): string {
  const schema = z.toJSONSchema(configSchema, { target: 'draft-07', io: 'input' });
  return `${JSON.stringify({ ...schema, title: 'gate configuration (gate.config.json, gate.local.json)' }, null, 2)}\n`;
}
