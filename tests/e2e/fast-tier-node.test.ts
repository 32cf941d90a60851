import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const gateConfig = (gates: object[]) => `${JSON.stringify({ gates }, null, 2)}\n`;
const status = (r: TempRepo) => runBin(['status'], { cwd: r.dir, env: r.env }).stdout;
const statusJson = (r: TempRepo) => JSON.parse(runBin(['status', '--json'], { cwd: r.dir, env: r.env }).stdout) as { gates: Array<{ name: string; fast?: boolean; tier?: string; command?: string }> };
const lastStop = (r: TempRepo) => (JSON.parse(runBin(['log', '--json'], { cwd: r.dir, env: r.env }).stdout) as Array<{ gates: Array<{ name: string; tier?: string; status: string }> }>).at(-1);

/** Every file under the work tree (outside .git and node_modules) whose name ends with `suffix`. */
function filesEndingWith(dir: string, suffix: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(suffix)) found.push(relative(dir, path));
    }
  };
  walk(dir);
  return found;
}

// lib without the DOM, as a Node project's tsconfig sets it: the target's default lib has tsc parse
// and check the DOM's 40,000 lines at every run (≈ 2.5 of a run's 4 s, at each of these tests' stops).
const LIB = ['ES2022'];
const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: LIB, types: [] }, include: ['src'] });
const PRICE = 'export function price(cents: number): number {\n  return cents / 100;\n}\n';
const CART = "import { price } from './price.js';\n\nexport const total: number = price(250) + price(100);\n";

describe('tsc: incremental, the .tsbuildinfo under gate\'s state', () => {
  it('catches an error the change causes in a file it did not touch, and leaves no .tsbuildinfo in the tree', () => {
    repo = makeRepo(
      { '.gitignore': 'node_modules\n', 'tsconfig.json': TSCONFIG, 'gate.config.json': gateConfig([{ name: 'typecheck', preset: 'tsc' }]), 'src/price.ts': PRICE, 'src/cart.ts': CART },
      { nodeModules: true },
    );
    promptStart(repo);
    repo.write('src/price.ts', 'export function price(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n');
    expect(status(repo)).toMatch(/fast tier: incremental: the \.tsbuildinfo under gate's state \(the whole program: the change reaches 2 of 2 files\): npx tsc --noEmit --pretty false --incremental --tsBuildInfoFile \S+\/\.git\/gate\/cache\/typecheck\/tsconfig\.tsbuildinfo/);
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/src\/cart\.ts\(3,14\): error TS2322: Type 'string' is not assignable to type 'number'/);
    expect(existsSync(join(repo.dir, '.git', 'gate', 'cache', 'typecheck', 'tsconfig.tsbuildinfo'))).toBe(true);
    expect(filesEndingWith(repo.dir, '.tsbuildinfo')).toEqual([]);
    expect(lastStop(repo)?.gates[0]?.tier).toBe("incremental: the .tsbuildinfo under gate's state (the whole program: the change reaches 2 of 2 files)");

    // The next stop reads the .tsbuildinfo the first one wrote, and still sees the fix and the error.
    repo.write('src/cart.ts', "import { price } from './price.js';\n\nexport const total: string = price(250);\n");
    expect(stop(repo).code).toBe(0);
    repo.write('src/cart.ts', "import { price } from './price.js';\n\nexport const total: number = price(250);\n");
    expect(stop(repo).code).toBe(2);
  });

  // Issue 27, point 5: a change that a few files import checks those files (and what they import), not the program.
  it('checks only the files the change reaches, through a barrel, with every declaration file, and still catches the error it causes elsewhere', () => {
    const module = (name: string) => `export function ${name}(cents: number): number {\n  return cents / 100;\n}\n`;
    repo = makeRepo(
      {
        '.gitignore': 'node_modules\n',
        'tsconfig.json': TSCONFIG,
        'gate.config.json': gateConfig([{ name: 'typecheck', preset: 'tsc' }]),
        'src/globals.d.ts': 'declare const SHOP_NAME: string;\n',
        'src/index.ts': "export * from './price.js';\nexport * from './tax.js';\nexport * from './fee.js';\nexport * from './ship.js';\n",
        'src/price.ts': PRICE,
        'src/tax.ts': module('tax'),
        'src/fee.ts': module('fee'),
        'src/ship.ts': module('ship'),
        'src/cart.ts': "import { price } from './index.js';\n\nexport const total: number = price(250);\nexport const label: string = SHOP_NAME;\n",
        'src/invoice.ts': "import { tax } from './index.js';\n\nexport const due: number = tax(100);\n",
        'src/report.ts': "import { fee } from './index.js';\n\nexport const owed: number = fee(100);\n",
        'src/label.ts': "import { ship } from './index.js';\n\nexport const sent: number = ship(100);\n",
        // Red before the turn, and nothing in it reaches price.ts: the subset leaves it out.
        'src/old.ts': "export const old: number = 'red';\n",
      },
      { nodeModules: true },
    );
    promptStart(repo);
    repo.write('src/price.ts', 'export function price(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n');
    const tier = '4 of 11 files: those the change reaches, and the declaration files and scripts';
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: true, tier, command: expect.stringContaining('-p ') });
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/src\/cart\.ts\(3,14\): error TS2322: Type 'string' is not assignable to type 'number'/);
    expect(blocked.stderr).not.toContain('src/old.ts');
    expect(blocked.stderr).not.toContain('SHOP_NAME');
    expect(lastStop(repo)?.gates[0]?.tier).toBe(tier);
    expect(filesEndingWith(repo.dir, '.json').sort()).toEqual(['gate.config.json', 'tsconfig.json']);
  });

  it('checks the whole program when the changed file declares globals', () => {
    repo = makeRepo({ '.gitignore': 'node_modules\n', 'tsconfig.json': TSCONFIG, 'gate.config.json': gateConfig([{ name: 'typecheck', preset: 'tsc' }]), 'src/price.ts': PRICE, 'src/cart.ts': CART, 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n' }, { nodeModules: true });
    repo.write('src/price.ts', `${PRICE}\ndeclare global {\n  var shop: string;\n}\n`);
    expect(statusJson(repo).gates[0]?.tier).toBe("incremental: the .tsbuildinfo under gate's state (the whole program: src/price.ts declares globals or augments a module)");
  });

  it('runs tsc -b where tsconfig.json has project references, which `tsc --noEmit` would pass unchecked', () => {
    repo = makeRepo(
      {
        '.gitignore': 'node_modules\nout/\n',
        'tsconfig.json': '{\n  // a solution file: no sources of its own\n  "files": [],\n  "references": [{ "path": "./core" }, { "path": "./app" }]\n}\n',
        'core/tsconfig.json': JSON.stringify({ compilerOptions: { composite: true, strict: true, outDir: '../out/core', lib: LIB, types: [] }, include: ['*.ts'] }),
        'core/price.ts': PRICE,
        'app/tsconfig.json': JSON.stringify({ compilerOptions: { composite: true, strict: true, outDir: '../out/app', lib: LIB, types: [] }, include: ['*.ts'], references: [{ path: '../core' }] }),
        'app/cart.ts': "import { price } from '../core/price';\n\nexport const total: number = price(250);\n",
        'gate.config.json': gateConfig([{ name: 'typecheck', preset: 'tsc' }]),
      },
      { nodeModules: true },
    );
    promptStart(repo);
    repo.write('core/price.ts', 'export function price(cents: number): string {\n  return String(cents);\n}\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: true, command: 'npx tsc -b --pretty false' });
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/app\/cart\.ts\(3,14\): error TS2322/);
    // The full command, as `gate check --all` runs it, is tsc -b too: plain tsc would check nothing.
    const all = runBin(['check', '--all'], { cwd: repo.dir, env: repo.env });
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('── typecheck: npx tsc -b --pretty false');
  });

  it('with "related": false runs the plain full command', () => {
    repo = makeRepo(
      { '.gitignore': 'node_modules\n', 'tsconfig.json': TSCONFIG, 'gate.config.json': gateConfig([{ name: 'typecheck', preset: 'tsc', related: false }]), 'src/price.ts': PRICE, 'src/cart.ts': CART },
      { nodeModules: true },
    );
    repo.write('src/price.ts', 'export const price = (cents: number): string => String(cents);\n');
    expect(status(repo)).toMatch(/full run: "related": false: the full run, its \.tsbuildinfo \(if any\) under gate's state: npx tsc --noEmit --pretty false --incremental --tsBuildInfoFile \S+\/\.git\/gate\/cache\/typecheck\/full\.tsbuildinfo$/m);
    expect(existsSync(join(repo.dir, '.git', 'gate', 'cache'))).toBe(false);
  });
});

const ESLINT_CONFIG = 'export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error" } }];\n';

describe('eslint: the changed files, with its cache under gate\'s state', () => {
  const project = (config = ESLINT_CONFIG) => ({
    '.gitignore': 'node_modules\n',
    'package.json': '{ "type": "module" }\n',
    'eslint.config.js': config,
    // Already failing before the turn, and not touched by it.
    'legacy.js': 'const unusedSinceForever = 1;\nexport {};\n',
    'src/ok.js': 'export const ok = 1;\n',
    'gate.config.json': gateConfig([{ name: 'lint', preset: 'eslint' }]),
  });

  it('lints only the changed file: its new error blocks, the untouched file\'s old one is not run at all', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/ok.js', 'const unusedNow = 2;\nexport const ok = 1;\n');
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('unusedNow');
    expect(blocked.stderr).not.toContain('unusedSinceForever');
    expect(blocked.stderr).toMatch(/\$ npx eslint --cache --cache-strategy content --cache-location \S+\/\.git\/gate\/cache\/lint\/ src\/ok\.js/);
    expect(readdirSync(join(repo.dir, '.git', 'gate', 'cache', 'lint')).length).toBeGreaterThan(0);
    expect(existsSync(join(repo.dir, '.eslintcache'))).toBe(false);
    expect(lastStop(repo)?.gates[0]?.tier).toBe('only what src/ok.js touches');
    repo.write('src/ok.js', 'export const ok = 2;\n');
    expect(stop(repo).code).toBe(0);
  });

  it('runs everything when its config changed', () => {
    repo = makeRepo(project(), { nodeModules: true });
    repo.write('eslint.config.js', 'export default [{ files: ["**/*.js"], rules: { "no-unused-vars": "error", "no-var": "error" } }];\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: false, tier: 'eslint.config.js changed, which affects every run', command: 'npx eslint .' });
  });

  it("runs everything, from eslint's cache, when its config turns on rules that read other files", () => {
    repo = makeRepo(project('import importPlugin from "eslint-plugin-import";\nexport default [{ rules: { "import/named": "error" } }];\n'), { nodeModules: true });
    repo.write('src/ok.js', 'export const ok = 3;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({
      fast: true,
      tier: 'eslint.config.js mentions import/: rules that read other files: the whole project, every file linted again (no cache gate can trust yet)',
      command: expect.stringMatching(/^npx eslint --cache --cache-strategy content --cache-location \S+\/\.git\/gate\/cache\/lint\/eslintcache \.$/),
    });
  });

  it('runs everything when a file was deleted', () => {
    repo = makeRepo(project(), { nodeModules: true });
    repo.remove('src/ok.js');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: false, tier: 'src/ok.js was deleted' });
  });
});

describe('biome: the changed files', () => {
  const project = (biome = '{ "linter": { "rules": { "recommended": true } } }\n') => ({
    '.gitignore': 'node_modules\n',
    'biome.json': biome,
    'legacy.ts': 'export const  unformatted =1\n',
    'src/ok.ts': 'export const ok = 1;\n',
    'gate.config.json': gateConfig([{ name: 'lint', preset: 'biome' }]),
  });

  it('checks only the changed file, and says so in status', () => {
    repo = makeRepo(project(), { nodeModules: true });
    promptStart(repo);
    repo.write('src/ok.ts', 'export const ok = 1;\ndebugger;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: true, command: 'npx biome check --diagnostic-level=error --no-errors-on-unmatched --files-ignore-unknown=true src/ok.ts' });
    const blocked = stop(repo);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('src/ok.ts');
    expect(blocked.stderr).not.toContain('legacy.ts');
  });

  it('runs everything when biome.json turns on project rules (they read other files)', () => {
    repo = makeRepo(project('{ "linter": { "domains": { "project": "all" } } }\n'), { nodeModules: true });
    repo.write('src/ok.ts', 'export const ok = 2;\n');
    expect(statusJson(repo).gates[0]).toMatchObject({ fast: false, tier: 'biome.json mentions "project": rules that read other files' });
  });
});
