import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tscFilter } from '../../src/filters/tsc.js';
import { fitFiltered } from '../../src/report/render-report.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/tsc/${name}.txt`, import.meta.url), 'utf8');

describe('tsc filter', () => {
  it('makes each diagnostic one item, with its code, location and message chain', () => {
    const result = tscFilter(fixture('plain'));
    expect(result.noun).toBe('errors');
    expect(result.items).toHaveLength(16);
    expect(result.items[0]).toEqual(["src/main.ts(2,24): error TS2307: Cannot find module './missing-module.js' or its corresponding type declarations."]);
    expect(result.items[15]).toEqual([
      "src/user.ts(33,14): error TS2322: Type '(user: { id: string; }) => string' is not assignable to type '(user: User) => string'.",
      "  Types of parameters 'user' and 'user' are incompatible.",
      "    Type 'User' is not assignable to type '{ id: string; }'.",
      "      Types of property 'id' are incompatible.",
      "        Type 'number' is not assignable to type 'string'.",
    ]);
    const text = result.items.flat().join('\n');
    for (const code of ['TS2307', 'TS2345', 'TS2322', 'TS7006', 'TS2741', 'TS2339']) expect(text).toContain(code);
    // The plain form prints no totals: the filter counts.
    expect(result.summary).toEqual(['16 diagnostics in 2 files.']);
  });

  it('reads --pretty output into the same lines, with related locations, without source, squiggles or the file table', () => {
    const pretty = tscFilter(fixture('pretty-colour'));
    const plain = tscFilter(fixture('plain'));
    expect(pretty.items.map((item) => item[0])).toEqual(plain.items.map((item) => item[0]));
    expect(pretty.items[9]).toEqual([
      "src/user.ts(8,27): error TS2741: Property 'zip' is missing in type '{ city: string; }' but required in type '{ city: string; zip: string; }'.",
      "  src/user.ts(4,28): 'zip' is declared here.",
      "  src/user.ts(4,3): The expected type comes from property 'address' which is declared here on type 'User'",
    ]);
    expect(pretty.items[15]).toEqual(plain.items[15]);
    const text = [...pretty.items.flat(), ...pretty.summary].join('\n');
    expect(text).not.toMatch(/\x1b|~|Errors {2}Files|return \{ id: '1'/);
    expect(pretty.summary).toEqual(['Found 16 errors in 2 files.']);
  });

  it('keeps errors in the config file', () => {
    expect(tscFilter(fixture('tsconfig-error')).items).toContainEqual(["tsconfig.json(1,56): error TS5025: Unknown compiler option 'targett'. Did you mean 'target'?"]);
  });

  it('gives a structured failure per diagnostic, keyed by file, code and message (not the line)', () => {
    expect(tscFilter(fixture('plain')).failures[0]).toEqual({
      id: "src/main.ts TS2307: Cannot find module './missing-module.js' or its corresponding type declarations.",
      rule: 'TS2307',
      file: 'src/main.ts',
      line: 2,
      message: "Cannot find module './missing-module.js' or its corresponding type declarations.",
    });
  });

  // Issue 39, point 4: the same project checked by TypeScript 7.0.2 (the native tsc).
  it('reads TypeScript 7\'s output into the same items as 5.9\'s: plain, pretty (its related notes on the location\'s line) and config errors', () => {
    const plain = tscFilter(fixture('plain'));
    const plain7 = tscFilter(fixture('ts7-plain'));
    expect(plain7.items).toEqual(plain.items);
    expect(plain7.failures).toEqual(plain.failures);
    const pretty = tscFilter(fixture('pretty-colour'));
    const pretty7 = tscFilter(fixture('ts7-pretty-colour'));
    expect(pretty7.items).toEqual(pretty.items);
    expect(pretty7.summary).toEqual(['Found 16 errors in 2 files.']);
    expect(tscFilter(fixture('ts7-tsconfig-error')).failures).toContainEqual({ id: "tsconfig.json TS5023: Unknown compiler option 'targett'.", rule: 'TS5023', file: 'tsconfig.json', line: 1, message: "Unknown compiler option 'targett'." });
    // An option TypeScript 7 removed: tsc reports the config and checks no file (src/a.ts's error is missing).
    expect(tscFilter(fixture('ts7-removed-options')).items).toEqual([
      ["tsconfig.json(1,49): error TS5102: Option 'baseUrl' has been removed. Please remove it from your configuration.", '  Use \'"paths": {"*": ["./*"]}\' instead.'],
      ["tsconfig.json(1,82): error TS5108: Option 'moduleResolution=node10' has been removed. Please remove it from your configuration."],
      ["tsconfig.json(1,98): error TS5108: Option 'target=ES5' has been removed. Please remove it from your configuration."],
    ]);
  });

  it('with 500 errors shows the first ones in order, then a count, then the totals', () => {
    const raw = fixture('volume-500-errors');
    const result = tscFilter(raw);
    expect(result.items).toHaveLength(500);
    const lines = fitFiltered(result, 6000);
    expect(lines.join('\n').length).toBeLessThanOrEqual(6000);
    const shown = lines.slice(0, -2);
    expect(shown.length).toBeGreaterThanOrEqual(40);
    expect(shown).toEqual(raw.split('\n').slice(0, shown.length));
    expect(lines.slice(-2)).toEqual([`… ${500 - shown.length} more errors`, '500 diagnostics in 25 files.']);
  });
});
