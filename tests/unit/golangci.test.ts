import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPresets } from '../../src/config/load-presets.js';
import { golangciLintFilter } from '../../src/filters/golangci-lint.js';
import { detectPresets } from '../../src/init/detect-presets.js';
import { dropMissingTools } from '../../src/init/drop-missing-tools.js';
import { readGolangciConfig } from '../../src/init/golangci-config.js';
import { leaveToGolangci } from '../../src/init/leave-to-golangci.js';
import { readRepoFacts } from '../../src/init/repo-facts.js';
import { PROJECT_ROOT } from '../helpers/temp-repo.js';

// Issue 38 point 5: goldmark's .golangci.yml enables gofmt, govet, staticcheck … and its CI runs
// golangci-lint; init proposed go test and go vet only, and a gofmt violation was let through.
const GOLDMARK_CONFIG = join(PROJECT_ROOT, 'tests', 'fixtures', 'golangci', 'goldmark.golangci.yml');
const GOLDMARK_LINTERS = ['errcheck', 'gosimple', 'govet', 'ineffassign', 'staticcheck', 'typecheck', 'unused', 'gofmt', 'godot', 'makezero', 'misspell', 'revive', 'wastedassign', 'lll'];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gate-golangci-')));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** goldmark's layout: go.mod, its .golangci.yml, a CI that runs golangci-lint-action and go test. */
function goldmark(): string {
  const dir = project({ 'go.mod': 'module github.com/yuin/goldmark\n\ngo 1.19\n', 'markdown.go': 'package goldmark\n', 'markdown_test.go': 'package goldmark\n' });
  copyFileSync(GOLDMARK_CONFIG, join(dir, '.golangci.yml'));
  return dir;
}

/** A `bin` folder holding a golangci-lint that would run (an executable file of that name). */
function binWithGolangci(): string {
  const bin = project({});
  writeFileSync(join(bin, 'golangci-lint'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'golangci-lint'), 0o755);
  return bin;
}

async function propose(dir: string, path: string) {
  const facts = readRepoFacts(dir);
  const presets = loadPresets();
  return leaveToGolangci(await dropMissingTools(detectPresets(facts, presets), dir, facts, presets, { PATH: path, HOME: dir }), dir);
}

describe('golangci-lint config', () => {
  it("goldmark's .golangci.yml: disable-all, then its 14 linters", () => {
    expect(readGolangciConfig(goldmark())).toEqual({ file: '.golangci.yml', linters: GOLDMARK_LINTERS });
  });

  it('v2 YAML (formatters apart, defaults kept), inline lists, TOML and JSON', () => {
    const v2 = project({ '.golangci.yaml': 'version: "2"\nlinters:\n  enable: [godot, misspell]\nformatters:\n  enable:\n    - gofmt\n    - goimports\n' });
    expect(readGolangciConfig(v2)?.linters).toEqual(['errcheck', 'govet', 'ineffassign', 'staticcheck', 'unused', 'godot', 'misspell', 'gofmt', 'goimports']);
    const none = project({ '.golangci.yml': 'version: "2"\nlinters:\n  default: none\n  enable:\n  - revive\n' });
    expect(readGolangciConfig(none)?.linters).toEqual(['revive']);
    const toml = project({ '.golangci.toml': '[linters]\ndisable-all = true\nenable = [\n  "gofmt",\n  "govet",\n]\n' });
    expect(readGolangciConfig(toml)?.linters).toEqual(['gofmt', 'govet']);
    const json = project({ '.golangci.json': '{ "linters": { "disable-all": true, "enable": ["gofmt"] } }' });
    expect(readGolangciConfig(json)).toEqual({ file: '.golangci.json', linters: ['gofmt'] });
    expect(readGolangciConfig(project({ 'go.mod': '' }))).toBeUndefined();
  });
});

describe('what init proposes for goldmark', () => {
  it('golangci-lint not installed: go test, go vet and a gofmt format gate, what to install, and which linters nothing gates', async () => {
    const detection = await propose(goldmark(), '/usr/bin:/bin');
    expect(detection.presets).toEqual([
      { preset: 'go-test', gateName: 'test', reasons: ['go.mod is present'] },
      { preset: 'go-vet', gateName: 'lint', reasons: ['go.mod is present'] },
      { preset: 'gofmt', gateName: 'format', reasons: ['.golangci.yml (golangci-lint) runs `gofmt`'] },
    ]);
    expect(detection.notes).toContain(
      'no lint-golangci-lint gate: preset golangci-lint fits (.golangci.yml is present), but golangci-lint is not installed (not in node_modules/.bin or PATH), and a gate that cannot start gives no verdict at any stop. Install it: install golangci-lint (https://golangci-lint.run/welcome/install/); then add { "name": "lint-golangci-lint", "preset": "golangci-lint" } to the config.',
    );
    expect(detection.notes.join('\n')).not.toContain('both present');
    expect(detection.notes).toContain(
      "without golangci-lint, .golangci.yml's errcheck, gosimple, ineffassign, staticcheck, typecheck, unused, godot, makezero, misspell, revive, wastedassign, lll are not gated (go vet and gofmt are, by gate's own preset).",
    );
  });

  it('golangci-lint installed: it is the lint gate, and gofmt and go vet, which its config enables, are left to it', async () => {
    const detection = await propose(goldmark(), `${binWithGolangci()}:/usr/bin:/bin`);
    expect(detection.presets).toEqual([
      { preset: 'go-test', gateName: 'test', reasons: ['go.mod is present'] },
      { preset: 'golangci-lint', gateName: 'lint', reasons: ['.golangci.yml is present'] },
    ]);
    expect(detection.notes).toEqual(['go-vet left out: golangci-lint runs govet (.golangci.yml enables it).', 'gofmt left out: golangci-lint runs gofmt (.golangci.yml enables it).']);
  });

  it('a CI step `gofmt -l .` with no golangci config: the gofmt format gate, from where it was found', async () => {
    const dir = project({ 'go.mod': 'module example.com/a\n', '.github/workflows/ci.yml': 'jobs:\n  fmt:\n    steps:\n      - run: test -z "$(gofmt -l .)"\n' });
    const detection = await propose(dir, '/usr/bin:/bin');
    expect(detection.presets).toContainEqual({ preset: 'gofmt', gateName: 'format', reasons: ['.github/workflows/ci.yml runs `test -z "$(gofmt -l .)"`'] });
    expect(detection.notes.join('\n')).not.toContain('tee /dev/stderr');
  });
});

describe('golangci-lint output', () => {
  it('one problem per issue with its source lines; the identity has no line number; the totals are the summary', () => {
    const filtered = golangciLintFilter(readFileSync(join(PROJECT_ROOT, 'tests', 'fixtures', 'golangci', 'run-text.txt'), 'utf8'));
    expect(filtered.failures.map((failure) => [failure.id, failure.file, failure.line])).toEqual([
      ['ast/ast.go errcheck: Error return value of `w.Write` is not checked', 'ast/ast.go', 412],
      ['util/util.go gofmt: File is not `gofmt`-ed with `-s`', 'util/util.go', 30],
      ['util/util.go godot: Comment should end in a period', 'util/util.go', 88],
    ]);
    expect(filtered.items[0]).toEqual(['ast/ast.go:412:9: Error return value of `w.Write` is not checked (errcheck)', '\tw.Write(b)', '\t       ^']);
    expect(filtered.summary).toEqual(['3 issues:', '* errcheck: 1', '* godot: 1', '* gofmt: 1']);
  });
});
