import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { filterOutput } from '../../src/filters/filter-output.js';
import { runGate } from '../../src/runner/run-gate.js';
import { hasTool, toolEnv } from '../helpers/tools.js';

// Issue 38 point 5: init's gofmt gate (`gofmt -l . | tee /dev/stderr`) blocked with only "tee:
// /dev/stderr: No such device or address". The gofmt preset runs real gofmt, which exits 0 whatever it
// finds: its output is the failure, each file named with its diff and `gofmt -w FILE`.
const FORMATTED = 'package a\n\nfunc F() int {\n\treturn 1\n}\n';
const UNFORMATTED = 'package sub\nfunc  G( ) int { return 2 }\n';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'gate-gofmt-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

function formatGate() {
  const text = '{ "gates": [{ "name": "format", "preset": "gofmt" }] }\n';
  const gate = loadConfig({ dir, hash: 'h', team: { path: join(dir, 'gate.config.json'), text } }, dir).gates[0];
  if (gate === undefined) throw new Error('no gate');
  return gate;
}

const run = (files: string[], full: boolean) =>
  runGate({ gate: formatGate(), files, full, projectDir: dir, logPath: join(dir, '.logs', 'format.log'), cacheDir: join(dir, '.cache', 'format'), env: { PATH: toolEnv()['PATH'] ?? '' } });

describe.skipIf(!hasTool('gofmt'))('the gofmt preset (real gofmt)', () => {
  it('an unformatted file fails the gate though gofmt exits 0, named with its diff and the command that formats it', async () => {
    write({ 'go.mod': 'module example.com/a\n\ngo 1.19\n', 'a.go': FORMATTED, 'sub/b.go': UNFORMATTED });
    const result = await run([], true);
    expect(result).toMatchObject({ status: 'failed', exitCode: 0, command: 'gofmt -d .' });
    expect(result.output).toContain('diff sub/b.go.orig sub/b.go\n');
    expect(result.output).toContain('+func G() int { return 2 }\n');
    const filtered = filterOutput(result.filter, result.output);
    expect(filtered.failures.map((failure) => failure.file)).toEqual(['sub/b.go']);
    expect(filtered.summary.at(-1)).toBe('Run `gofmt -w sub/b.go` to format it.');
  });

  it('formatted, it passes; a stop checks only the changed files, so an old unformatted one is not the turn\'s', async () => {
    write({ 'go.mod': 'module example.com/a\n\ngo 1.19\n', 'a.go': FORMATTED, 'sub/b.go': FORMATTED.replace('package a', 'package sub') });
    expect((await run([], true)).status).toBe('passed');
    write({ 'sub/b.go': UNFORMATTED });
    const fast = await run(['a.go'], false);
    expect(fast).toMatchObject({ status: 'passed', command: 'gofmt -d a.go' });
  });

  it('a file gofmt cannot parse fails with its error', async () => {
    write({ 'go.mod': 'module example.com/a\n\ngo 1.19\n', 'a.go': 'package a\nfunc {\n' });
    const result = await run([], true);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/a\.go:2:6: expected/);
  });
});
