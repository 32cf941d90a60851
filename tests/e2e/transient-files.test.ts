import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_OK, vitestProject } from '../helpers/fixtures.js';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 26, point 2: gates share the work tree. Here, deterministically, what vitest's typecheck does
// to a full biome run beside it: `maker` writes a file biome fails on, waits until biome has linted
// it, then (unless KEEP) deletes it. Each side waits for the other's flag file, not for time.

let repo: TempRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

// Flags under .git/, which biome never reads.
const MAKER = `const fs = require('node:fs');
fs.writeFileSync('scratch.js', 'debugger;\\n');
fs.writeFileSync('.git/flags/made', '');
const wait = () => {
  if (!fs.existsSync('.git/flags/linted')) return setTimeout(wait, 20);
  if (!process.env.KEEP) fs.unlinkSync('scratch.js');
};
wait();
`;
// The first run waits until the file is there; a run alone later does not, nor one on a copy of the baseline.
const LINT = 'if [ -e .git/flags/armed ] && [ ! -e .git/flags/linted ]; then until [ -e .git/flags/made ]; do sleep 0.02; done; fi; biome check --diagnostic-level=error .; s=$?; touch .git/flags/linted; exit $s';
const BIOME = { vcs: { enabled: true, clientKind: 'git', useIgnoreFile: true }, formatter: { enabled: false }, assist: { enabled: false } };

function project(keep: boolean): TempRepo {
  const gates = [
    { name: 'lint', run: LINT, shell: true, filter: 'biome', on: ['src/**'] },
    { name: 'maker', run: ['node', '-e', MAKER], on: ['src/**'], ...(keep ? { env: { KEEP: '1' } } : {}) },
  ];
  const made = makeRepo({ ...vitestProject({ concurrency: 2, gates }), 'biome.json': `${JSON.stringify(BIOME, null, 2)}\n` }, { nodeModules: true });
  mkdirSync(join(made.dir, '.git', 'flags'));
  writeFileSync(join(made.dir, '.git', 'flags', 'armed'), '');
  return made;
}

const systemMessage = (stdout: string): string => JSON.parse(stdout).systemMessage;

describe('a finding in a file another gate made and removed during the run', () => {
  it('is no finding: the gate runs again alone and the stop is allowed', () => {
    repo = project(false);
    promptStart(repo);
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    const result = stop(repo);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(systemMessage(result.stdout)).toMatch(/^gate: lint failed only in a file that appeared or vanished while the gates ran \(scratch\.js: another gate's, likely\), so it ran again alone: it passed\.$/);
    expect(existsSync(join(repo.dir, 'scratch.js'))).toBe(false);
  });

  it('is no finding for gate check --all either', () => {
    repo = project(false);
    const result = runBin(['check', '--all'], { cwd: repo.dir, env: repo.env });
    expect(result.stderr).toMatch(/lint failed only in a file that appeared or vanished/);
    expect(result.code).toBe(0);
  });

  it('is left out of the report of a gate that also failed on the change', () => {
    repo = project(false);
    promptStart(repo);
    repo.write('src/bad.js', 'debugger;\n');
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/src\/bad\.js/);
    expect(result.stderr).not.toMatch(/\/?scratch\.js:/);
    expect(result.stderr).toMatch(/Left out: 1 finding in files that appeared or vanished while the gates ran \(another gate's, likely\): scratch\.js/);
    expect(systemMessage(result.stdout)).not.toMatch(/ran again alone/);
  });

  it('counts when the file stays: the run alone finds it too', () => {
    repo = project(true);
    promptStart(repo);
    repo.write('src/sum.ts', SUM_OK.replace('a + b', 'b + a'));
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/scratch\.js/);
    expect(systemMessage(result.stdout)).toMatch(/so it ran again alone: failed\./);
  });
});
