import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILTER_IDS } from '../../src/filters/filter-ids.js';
import { presetSchema } from '../../src/config/schema.js';
import { configJsonSchema } from '../../src/config/json-schema.js';
import { loadPresets } from '../../src/config/load-presets.js';
import { renderPresetsDoc } from '../../src/init/presets-doc.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

const dir = join(PROJECT_ROOT, 'presets');
const presetFiles = readdirSync(dir).filter((file) => file.endsWith('.json'));

describe('presets', () => {
  it('ships at least the tools the engine promises', () => {
    const ids = presetFiles.map((file) => file.replace(/\.json$/, ''));
    expect(ids).toEqual(expect.arrayContaining(['vitest', 'jest', 'node-test', 'tsc', 'eslint', 'biome']));
  });

  it.each(presetFiles)('%s is valid, named after its id, with a known filter and reasons', (file) => {
    const preset = presetSchema.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    expect(`${preset.id}.json`).toBe(file);
    expect(FILTER_IDS).toContain(preset.filter);
    expect(preset.detect.every((rule) => rule.reason.length > 0 && (rule.dependency ?? rule.file ?? rule.section ?? rule.formatCheck ?? rule.lintRun) !== undefined)).toBe(true);
    // Triggers are source, tests and config, never docs.
    expect(preset.on.some((glob) => /\.md\b|docs\//.test(glob))).toBe(false);
  });

  it('pins vitest to a single run with a plain reporter', () => {
    const vitest = JSON.parse(readFileSync(join(dir, 'vitest.json'), 'utf8'));
    expect(vitest.run.slice(0, 2)).toEqual(['vitest', 'run']);
    expect(vitest.run.some((arg: string) => arg.startsWith('--reporter='))).toBe(true);
  });
});

describe('schema.json', () => {
  it('is what the zod schema generates (run "npm run schema" when this fails)', () => {
    expect(readFileSync(join(PROJECT_ROOT, 'schema.json'), 'utf8')).toBe(configJsonSchema());
  });
});

describe('docs/presets.md', () => {
  it('is what the preset files generate (run "npm run docs:presets" when this fails)', () => {
    expect(readFileSync(join(PROJECT_ROOT, 'docs', 'presets.md'), 'utf8')).toBe(renderPresetsDoc([...loadPresets().values()]));
  });
});
