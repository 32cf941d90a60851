import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';
import { hasTool, toolEnv } from '../helpers/tools.js';

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

describe('a real pytest INTERNALERROR', () => {
  it.skipIf(!hasTool('pytest'))('leads with the exception raised in conftest.py\'s hook and its frames, none of pytest\'s or pluggy\'s', () => {
    repo = makeRepo(
      {
        'conftest.py': 'def pytest_collection_modifyitems(config, items):\n    raise ValueError("no order for " + items[0].name)\n',
        'test_a.py': 'def test_one():\n    assert True\n',
      },
      { git: false },
    );
    const run = spawnSync('pytest', ['-q', '-p', 'no:cacheprovider'], { cwd: repo.dir, env: toolEnv({ ...repo.env, NO_COLOR: '1' }), encoding: 'utf8' });
    expect(run.stdout + run.stderr).toContain('INTERNALERROR> ');
    const filtered = filterOutput('pytest', run.stdout + run.stderr);
    expect(filtered.items).toEqual([
      [
        'INTERNALERROR ValueError: no order for test_one',
        `  File "${repo.dir}/conftest.py", line 2, in pytest_collection_modifyitems`,
        '    raise ValueError("no order for " + items[0].name)',
      ],
    ]);
  });
});
