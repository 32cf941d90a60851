// Python's .pyc files for gate's runs (src/runner/python-bytecode.ts), with the real python3: kept
// under gate's state so a run stops compiling the standard library, its tools and the project at
// every stop, and never trusted where Python's own check (the source's size and second) can be
// fooled: a source changed again within the second it was compiled in.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedGate } from '../../src/config/load-config.js';
import { runGate } from '../../src/runner/run-gate.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-pyc-'));
  mkdirSync(join(dir, 'pkg'));
  writeFileSync(join(dir, 'pkg', '__init__.py'), '');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const prints = (): ResolvedGate => ({ name: 'py', shortName: 'py', configDir: dir, preset: undefined, run: ['python3', '-c', 'import pkg.value; print(pkg.value.VALUE)'], shell: false, on: ['**/*'], ignore: [], timeoutSeconds: 60, filter: 'generic', tier: undefined, fastOff: false, cwd: dir, env: {}, retries: 0 });
const cacheDir = () => join(dir, '.git', 'gate', 'cache', 'py');
const folder = () => join(dir, '.git', 'gate', 'cache', 'python-bytecode');
// The machine's own PYTHONDONTWRITEBYTECODE (CI sets it) must not keep gate's cache from working.
const run = (pythonBytecode?: boolean) => runGate({ gate: prints(), files: [], projectDir: dir, logPath: join(dir, 'log'), cacheDir: cacheDir(), env: { PATH: process.env['PATH'] ?? '', PYTHONDONTWRITEBYTECODE: '1' }, ...(pythonBytecode === undefined ? {} : { pythonBytecode }) });
const pycs = (under: string): string[] => (existsSync(under) ? (readdirSync(under, { recursive: true }) as string[]).filter((name) => name.endsWith('.pyc')) : []);
const valuePyc = () => pycs(folder()).filter((name) => /pkg[\\/]value\.cpython-\d+\.pyc$/.test(name));

function writeValue(text: string, seconds: number): void {
  const path = join(dir, 'pkg', 'value.py');
  writeFileSync(path, text);
  utimesSync(path, seconds, seconds);
}

describe("gate's Python bytecode cache", () => {
  it('keeps .pyc files under gate\'s state, none in the tree, and reuses them while the sources stay', async () => {
    writeValue('VALUE = 1\n', Date.now() / 1000 - 3600);
    expect((await run()).output).toBe('1\n');
    expect(pycs(join(dir, 'pkg'))).toEqual([]);
    expect(valuePyc()).toHaveLength(1);
    // The standard library's modules are compiled once too.
    expect(pycs(folder()).length).toBeGreaterThan(5);
    const written = statSync(join(folder(), valuePyc()[0] as string)).mtimeMs;
    expect((await run()).output).toBe('1\n');
    expect(statSync(join(folder(), valuePyc()[0] as string)).mtimeMs).toBe(written);
  });

  it('drops a .pyc whose source was modified in the second its run began: an edit within that second, to the same size, is still seen', async () => {
    const now = Math.floor(Date.now() / 1000);
    writeValue('VALUE = 1\n', now);
    expect((await run()).output).toBe('1\n');
    expect(valuePyc()).toEqual([]);
    // Same size, same second: Python alone would trust the .pyc it wrote for VALUE = 1.
    writeValue('VALUE = 2\n', now);
    expect((await run()).output).toBe('2\n');
  });

  it('checks what a run that never finished left, before its own run; not what a live one is writing', async () => {
    // A run killed before its check (here: a Python started by hand) leaves its marker and a .pyc
    // of a source from its own second: the next run checks for it first.
    const now = Math.floor(Date.now() / 1000);
    writeValue('VALUE = 3\n', now);
    const unchecked = spawnSync('python3', ['-c', 'import pkg.value'], { cwd: dir, env: { PATH: process.env['PATH'] ?? '', PYTHONPYCACHEPREFIX: folder() } });
    expect(unchecked.status).toBe(0);
    expect(valuePyc()).toHaveLength(1);
    writeFileSync(join(folder(), `.run-${unchecked.pid}-killed`), String(now * 1000));
    // A gate running beside this one (a live process) checks its own run.
    const beside = `.run-${process.pid}-beside`;
    writeFileSync(join(folder(), beside), String(now * 1000));
    writeValue('VALUE = 4\n', now);
    expect((await run()).output).toBe('4\n');
    expect(readdirSync(folder()).filter((name) => name.startsWith('.run-'))).toEqual([beside]);
  });

  it('reads and writes none for a baseline copy (its paths change with every copy)', async () => {
    writeValue('VALUE = 1\n', Date.now() / 1000 - 3600);
    expect((await run(false)).output).toBe('1\n');
    expect(pycs(folder())).toEqual([]);
    expect(pycs(join(dir, 'pkg'))).toEqual([]);
  });
});
