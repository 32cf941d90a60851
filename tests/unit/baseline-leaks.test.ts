import { describe, expect, it } from 'vitest';
import { workTreePathsIn } from '../../src/verdict/copy-leaks.js';
import { editablesInPth, importedModules, pathsNamed } from '../../src/start/editable-installs.js';

const root = '/home/dev/shop';
const site = '/home/dev/shop/.venv/lib/python3.12/site-packages';

describe('editable installs in a .pth file', () => {
  it('takes path lines inside the work tree (relative ones against site-packages), not others', () => {
    const pth = '# comment\n/home/dev/shop/src\n/home/dev/other/src\n../../../../lib\n\n';
    expect(editablesInPth(pth, site, [root])).toEqual(['/home/dev/shop/src', '/home/dev/shop/lib']);
  });

  it('finds the modules its import lines load, and absolute paths written in them', () => {
    expect(importedModules('import __editable___shop_0_1_finder; __editable___shop_0_1_finder.install()\nimport a.b, c\n')).toEqual(['__editable___shop_0_1_finder', 'a', 'c']);
    expect(editablesInPth("import sys; sys.path.insert(0, '/home/dev/shop/lib')\n", site, [root])).toEqual(['/home/dev/shop/lib']);
  });

  it('reads a hook module\'s map of package to folder, for each spelling of the work tree', () => {
    const finder = "MAPPING: dict[str, str] = {'shop': '/home/dev/shop/shop', 'x': \"/real/shop/x.py\", 'y': '/home/dev/shopping/y'}\n";
    expect(pathsNamed(finder, [root, '/real/shop']).sort()).toEqual(['/home/dev/shop/shop', '/real/shop/x.py']);
  });
});

describe('what a baseline run\'s output says about where its code came from', () => {
  const copy = '/tmp/gate-baseline-x/shop';
  const top = new Set(['src', 'tests', 'pyproject.toml']);

  it('names the work tree\'s own files, never the copy\'s, its venv\'s or node_modules\'', () => {
    const output = [
      `File "${root}/src/shop/__init__.py", line 2, in add`,
      `File "${copy}/tests/test_shop.py", line 4`,
      `${root}/.venv/lib/python3.12/site-packages/_pytest/python.py:159`,
      `at ${root}/node_modules/vitest/dist/index.js:1:1`,
      `(${root}/tests/test_shop.py:4:3)`,
      `${root}/README.md`,
    ].join('\n');
    expect(workTreePathsIn(output, [root], copy, top)).toEqual(['src/shop/__init__.py', 'tests/test_shop.py']);
  });
});
