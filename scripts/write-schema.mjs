// Regenerates schema.json from the zod schema (via the built dist/). A test fails when it is stale.
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../dist/config/json-schema.js';

writeFileSync(new URL('../schema.json', import.meta.url), configJsonSchema());
console.log('wrote schema.json');
