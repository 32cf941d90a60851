import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-problem.js';
import type { ConfigFiles } from '../../src/config/find-config.js';
import { loadConfig } from '../../src/config/load-config.js';

const DIR = '/repo';

function files(team?: unknown, local?: unknown): ConfigFiles {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  return {
    dir: DIR,
    hash: 'h',
    team: team === undefined ? undefined : { path: `${DIR}/gate.config.json`, text: text(team) },
    local: local === undefined ? undefined : { path: `${DIR}/gate.local.json`, text: text(local) },
  };
}

function problems(team?: unknown, local?: unknown): string[] {
  try {
    loadConfig(files(team, local), DIR);
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n');
    throw error;
  }
  throw new Error('expected the config to be rejected');
}

describe('loadConfig', () => {
  it('fills a preset gate from its preset and applies the defaults', () => {
    const config = loadConfig(files({ gates: [{ name: 'test', preset: 'vitest' }] }), DIR);
    expect(config).toMatchObject({ maxBlocks: 3, budget: 6000, onTimeout: 'once', outsideGit: 'skip', subagents: false });
    expect(config.gates[0]).toMatchObject({ name: 'test', preset: 'vitest', run: ['vitest', 'run', '--reporter=default'], filter: 'vitest', timeoutSeconds: 300, cwd: DIR });
  });

  it('lets the personal file override top-level keys and gates by name, and add gates', () => {
    const config = loadConfig(
      files({ maxBlocks: 5, gates: [{ name: 'test', preset: 'vitest' }] }, { maxBlocks: 2, gates: [{ name: 'test', timeout: 30 }, { name: 'lint', run: 'eslint .' }] }),
      DIR,
    );
    expect(config.maxBlocks).toBe(2);
    expect(config.gates.map((gate) => [gate.name, gate.timeoutSeconds])).toEqual([['test', 30], ['lint', 300]]);
    expect(config.gates[0]?.run).toEqual(['vitest', 'run', '--reporter=default']);
  });

  it('accepts a personal file on its own', () => {
    expect(loadConfig(files(undefined, { gates: [{ name: 'tsc', preset: 'tsc' }] }), DIR).gates).toHaveLength(1);
  });

  it('reports every problem at once with file, dot-path, value and a hint', () => {
    const lines = problems({
      maxBlock: 3,
      budget: 'lots',
      onTimeout: 'maybe',
      gates: [{ name: 'test', preset: 'vitest', timeout: '60s' }, { name: 'bad name!', run: 'x' }, { name: 'lint', run: [] }, { name: 'e', run: 42 }],
    });
    expect(lines).toEqual(
      expect.arrayContaining([
        'gate.config.json: maxBlock: unknown key "maxBlock"; did you mean "maxBlocks"?',
        'gate.config.json: budget: expected a number, got "lots"',
        'gate.config.json: onTimeout: expected one of "once", "allow", "block", got "maybe"',
        'gate.config.json: gates[0].timeout: expected a number, got "60s"',
        expect.stringMatching(/^gate\.config\.json: gates\[1\]\.name: a gate name is letters.*got "bad name!"$/),
        'gate.config.json: gates[2].run: the command needs at least the program, got []',
        'gate.config.json: gates[3].run: expected a command string or an array of strings, got 42',
      ]),
    );
  });

  it('names unknown presets and filters with a suggestion', () => {
    expect(problems({ gates: [{ name: 'test', preset: 'vitets' }, { name: 'l', run: 'x', filter: 'eslnt' }] })).toEqual([
      'gate.config.json: gates[0].preset: unknown preset "vitets"; did you mean "vitest"?',
      'gate.config.json: gates[1].filter: unknown filter "eslnt"; did you mean "eslint"?',
    ]);
  });

  it('rejects invalid JSON with the line and column', () => {
    const [line] = problems('{\n  "gates": [],\n}\n');
    expect(line).toMatch(/^gate\.config\.json: is not valid JSON at line 3, column 1/);
  });

  it('rejects a negative timeout, a duplicate name and a gate with nothing to run', () => {
    expect(problems({ gates: [{ name: 'a', run: 'x', timeout: -1 }] })).toEqual([
      'gate.config.json: gates[0].timeout: a timeout is a positive number of seconds, got -1',
    ]);
    expect(problems({ gates: [{ name: 'a', run: 'x' }, { name: 'a', run: 'y' }] })[0]).toMatch(/gates\[1\]\.name: "a" is used by an earlier gate/);
    expect(problems({ gates: [{ name: 'a' }] })).toEqual(['gate.config.json: gates[0]: gate "a" needs "preset" or "run"']);
  });
});
