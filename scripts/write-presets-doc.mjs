// Regenerates docs/presets.md from presets/*.json (via the built dist/). A test fails when it is stale.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { renderPresetsDoc } from '../dist/init/presets-doc.js';

const dir = new URL('../presets/', import.meta.url);
const presets = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(new URL(name, dir), 'utf8')));
writeFileSync(new URL('../docs/presets.md', import.meta.url), renderPresetsDoc(presets));
console.log('wrote docs/presets.md');
