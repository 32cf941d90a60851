import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package/package-root.js';
import { z } from 'zod';
import { presetSchema, type Preset } from './schema.js';

let cache: Map<string, Preset> | undefined;

/** Every preset shipped in presets/, by id. A broken preset file is gate's own bug: it throws. */
export function loadPresets(): Map<string, Preset> {
  if (cache) return cache;
  const dir = join(packageRoot(), 'presets');
  cache = new Map();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
    const parsed = presetSchema.safeParse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    if (!parsed.success) throw new Error(`presets/${file} is invalid (a bug in this stopgate install):\n${z.prettifyError(parsed.error)}`);
    cache.set(parsed.data.id, parsed.data);
  }
  return cache;
}
