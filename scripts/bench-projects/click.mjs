// Python: click at a pinned commit of its repository (src/ layout, 35 test files). Installed as
// its contributing guide says, into a venv in the checkout: flit_core, then
// `pip install --no-build-isolation -e . pytest`, plus mypy and ruff (its dev and typing groups;
// `gate init` writes gates for both), all at the pins scripts/install-tools.mjs uses. The wheels
// are downloaded once into .cache/bench-projects/click-wheels; each temp repo makes its own
// .venv from them, offline (an editable install points at the checkout it was made in).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exportTree, gitSnapshot, makeOnce, pipEnv, run } from './fetch.mjs';

const REPO = 'pallets/click';
const COMMIT = '2c8cd3ac958a7eb316d67f2d316c27086c4c0369';
// Its build-system asks for flit_core<4; the index has 4.x only, which builds it (no build isolation).
const FLIT = 'flit_core';

// Named by the tools' pins: a pin added to scripts/install-tools.mjs downloads its wheel again.
const wheelsIn = (cache, pins) => join(cache, `click-wheels-${createHash('sha1').update(pins.join(' ')).digest('hex').slice(0, 8)}`);

export const click = {
  id: 'click',
  stack: 'python',
  title: 'click 8.5.0.dev0',
  origin: `github ${REPO}@${COMMIT.slice(0, 10)}`,
  init: true,
  target: 0.25,
  needs: ['python3'],
  fetch: ({ cache, toolsPython, toolsPins }) => {
    makeOnce(wheelsIn(cache, toolsPins), (dir) => {
      run(toolsPython, ['-m', 'pip', 'download', '--quiet', '-d', dir, FLIT, ...toolsPins], { env: pipEnv() });
    });
    return makeOnce(join(cache, `click-${COMMIT}-tree`), (dir) => exportTree(gitSnapshot(cache, { repo: REPO, commit: COMMIT }), dir));
  },
  prepare(source, dir) {
    run('cp', ['-a', `${source}/.`, dir]);
    run('rm', ['-f', join(dir, '.gate-bench-made')]);
    return `a .venv per temp repo: flit_core (4.x: the index has no <4), pytest, mypy, ruff (pinned), click editable`;
  },
  /** In the temp repo, before its first commit: the venv a contributor makes (.venv is in its .gitignore). */
  setup(dir, env, { cache, toolsPins }) {
    const wheels = wheelsIn(cache, toolsPins);
    if (!existsSync(wheels) || readdirSync(wheels).length === 0) throw new Error(`click: no wheels in ${wheels}`);
    const offline = ['--quiet', '--no-index', '--find-links', wheels];
    const pip = join(dir, '.venv', 'bin', 'pip');
    run('python3', ['-m', 'venv', '.venv'], { cwd: dir, env });
    run(pip, ['install', ...offline, 'flit_core', ...toolsPins], { cwd: dir, env: pipEnv() });
    run(pip, ['install', ...offline, '--no-build-isolation', '--no-deps', '-e', '.'], { cwd: dir, env: pipEnv() });
  },
  localPath: ['.venv/bin'],
  env: () => ({}),
  full: ['pytest'],
  module: {
    what: 'src/click/termui.py: a prompt lists its choices with "/" instead of ", "',
    file: 'src/click/termui.py',
    replace: ['prompt += f" ({\', \'.join(map(str, type.choices))})"', 'prompt += f" ({\'/\'.join(map(str, type.choices))})"'],
    expect: [/test_/],
  },
  fix: {
    what: 'src/click/termui.py: ", " again, written differently (the module stays changed)',
    file: 'src/click/termui.py',
    replace: ['prompt += f" ({\'/\'.join(map(str, type.choices))})"', 'prompt += f" ({\', \'.join(str(choice) for choice in type.choices)})"'],
  },
  test: {
    what: 'tests/test_formatting.py: a new test with a wrong expectation',
    file: 'tests/test_formatting.py',
    append: '\n\ndef test_gate_bench_wrong_expectation() -> None:\n    assert click.style("x", bold=True) == "x"\n',
    expect: [/test_formatting\.py/, /test_gate_bench_wrong_expectation/],
  },
  testFix: {
    what: 'tests/test_formatting.py: the expectation corrected',
    file: 'tests/test_formatting.py',
    // Not the same length as the wrong line: Python trusts a .pyc whose source has the same size and
    // mtime second, and a fast stop can import the wrong version within that second (a stale pass/fail).
    replace: ['assert click.style("x", bold=True) == "x"', 'assert click.style("x", bold=True) == "\\x1b[1mx\\x1b[0m"'],
  },
  // Issue 39. src/click/utils.py is imported by click/__init__, so by every test.
  comment: {
    what: 'src/click/utils.py: a comment inside make_str',
    file: 'src/click/utils.py',
    replace: ['    """Converts a value into a valid string."""\n', '    """Converts a value into a valid string."""\n    # gate bench: a comment only\n'],
  },
  shared: {
    what: 'src/click/utils.py: _make_default_short_help ends a truncated help with " ..." (a space before the dots)',
    file: 'src/click/utils.py',
    replace: ['    return " ".join(words[:i]) + "..."', '    return " ".join(words[:i]) + " ..."'],
    expect: [/test_make_default_short_help/],
  },
  sharedFix: {
    what: 'src/click/utils.py: "..." again, written differently (another length: see testFix)',
    file: 'src/click/utils.py',
    replace: ['    return " ".join(words[:i]) + " ..."', '    return " ".join(words[:i]) + "." * 3'],
  },
};
