import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { biomeFilter } from '../../src/filters/biome.js';
import { fitFiltered } from '../../src/report/render-report.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/biome/${name}.txt`, import.meta.url), 'utf8');
const kept = (name: string) => {
  const result = biomeFilter(fixture(name));
  return [...result.items.flat(), ...result.summary].join('\n');
};

describe('biome filter', () => {
  it('makes each diagnostic one item: position and rule, message, the pointed line, notes; errors first', () => {
    const result = biomeFilter(fixture('check'));
    expect(result.noun).toBe('problems');
    expect(result.items).toHaveLength(11);
    expect(result.items[2]).toEqual([
      'src/cart.js:18:10 lint/suspicious/noDuplicateCase',
      '  × Duplicate case label.',
      "    > 18 │     case 'A':",
      '  i The first similar label is here:',
      "    > 16 │     case 'A':",
      "  i Only the first matching case is selected. If it does not break or return, execution can fall through to this duplicate's body. It is probably a copy-paste mistake.",
      '  i Remove the duplicate case, or change its value to the one you meant.',
    ]);
    const severities = result.items.map((item) => item[1]?.trim()[0]);
    expect(severities).toEqual(['×', '×', '×', '×', '×', '!', '!', '!', '!', 'i', 'i']);
    expect(result.summary).toEqual(['Found 5 errors. Found 4 warnings. Found 2 infos.']);
  });

  it('keeps formatter complaints with their changed lines, and drops code frames, lint fixes, timings and the closing verdict', () => {
    const text = kept('check');
    expect(text).toContain('src/cart.js format\n  × Formatter would have printed the following content:\n  i Run `npx biome format --write src/cart.js` to format it.\n    ');
    expect(text).toContain('  i Unsafe fix: Use === instead.');
    for (const noise of ['━', '^^^', '4 │   return n', '7   │ - export·const·label', 'Checked 4 files', 'ms.', 'Some errors were emitted']) {
      expect(text).not.toContain(noise);
    }
  });

  it('gives a structured failure per diagnostic', () => {
    expect(biomeFilter(fixture('check')).failures.slice(0, 2)).toEqual([
      { id: 'package.json format: Formatter would have printed the following content:', rule: 'format', file: 'package.json', message: 'Formatter would have printed the following content:' },
      { id: 'src/cart.js lint/suspicious/noDoubleEquals: Using == may be unsafe if you are relying on type coercion.', rule: 'lint/suspicious/noDoubleEquals', file: 'src/cart.js', line: 7, message: 'Using == may be unsafe if you are relying on type coercion.' },
    ]);
  });

  it('reads coloured output (✖ ⚠ ℹ, hyperlinked rule names) exactly as plain output', () => {
    expect(fixture('colour-check')).toContain('\x1b]8;;https://biomejs.dev/');
    const colour = biomeFilter(fixture('colour-check'));
    const plain = biomeFilter(fixture('check'));
    expect(colour.items).toEqual(plain.items);
    expect(colour.summary).toEqual(plain.summary);
    expect(kept('colour-check')).not.toMatch(/\x1b|biomejs\.dev/);
  });

  it('with more diagnostics than Biome prints, keeps its note of how many it left out with the totals', () => {
    const result = biomeFilter(fixture('volume-526-diagnostics'));
    const lines = fitFiltered(result, 6000);
    expect(lines.join('\n').length).toBeLessThanOrEqual(6000);
    expect(lines[0]).toMatch(/^\S+ format$/);
    expect(lines.at(-1)).toBe(
      'The number of diagnostics exceeds the limit allowed. Use --max-diagnostics to increase it. Diagnostics not shown: 506. Found 26 errors. Found 500 warnings.',
    );
    expect(lines.at(-2)).toMatch(/^… \d+ more problems$/);
  });
});
