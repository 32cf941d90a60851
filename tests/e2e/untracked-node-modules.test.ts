// A Python project after `npm i -D stopgate`: a node_modules/ the .gitignore does not ignore, with
// stopgate's own templates/gate.config.json in it. None of it is the project's source (issue 28).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptStart, runBin, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

const APP_CHECK = "process.exit(require('fs').readFileSync('app.py', 'utf8').includes('broken') ? 1 : 0)";

function installStopgate(target: TempRepo): void {
  target.write('node_modules/stopgate/templates/gate.config.json', JSON.stringify({ gates: [{ name: 'pkg', run: ['node', '-e', 'process.exit(1)'] }] }));
  target.write('node_modules/stopgate/dist/cli.js', 'export {};\n');
  target.write('node_modules/stopgate/package.json', '{ "name": "stopgate" }\n');
  target.write('node_modules/.package-lock.json', '{}\n');
}

describe('an untracked, unignored node_modules/', () => {
  it('is neither source nor a package config: status lists none of it, no gate runs for it; a source change still runs', () => {
    repo = makeRepo({
      'app.py': 'def main():\n    return 1\n',
      '.gitignore': '__pycache__/\n',
      'gate.config.json': JSON.stringify({ gates: [{ name: 'test', run: ['node', '-e', APP_CHECK] }] }),
    });
    promptStart(repo);
    installStopgate(repo);

    const status = runBin(['status'], { cwd: repo.dir, env: repo.env });
    expect(status.code).toBe(0);
    expect(status.stdout).not.toMatch(/node_modules/);
    expect(stop(repo)).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(join(repo.dir, '.git', 'gate', 'logs', 'test.log'))).toBe(false);
    expect(existsSync(join(repo.dir, '.git', 'gate', 'logs', 'node_modules-stopgate-templates-pkg.log'))).toBe(false);

    repo.write('app.py', 'def main():\n    return "broken"\n');
    const refused = stop(repo);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^gate: 1 of 1 checks failed \(test\)/);
  });
});
