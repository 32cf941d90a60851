import { describe, expect, it } from 'vitest';
import { selectMembers } from '../../src/fast/cargo-members.js';
import { selectPackages } from '../../src/fast/go-packages.js';
import { parseCargoMetadata, type CargoWorkspace } from '../../src/fast/parse-cargo-metadata.js';
import { parseGoList, type GoPackage } from '../../src/fast/parse-go-list.js';

const ROOT = '/nonexistent/repo';
const RUN = ['go', 'test', '{files}'];

function pkg(dir: string, fields: Partial<GoPackage> = {}): GoPackage {
  return { importPath: `example.test/m/${dir}`, dir: `${ROOT}/${dir}`, imports: [], testImports: [], embeds: [], error: undefined, ...fields };
}

describe('selectPackages (go)', () => {
  // api imports store imports model; cli's tests (not its code) import store; web embeds its templates.
  const packages = [
    pkg('model'),
    pkg('store', { imports: ['example.test/m/model'] }),
    pkg('api', { imports: ['example.test/m/store'] }),
    pkg('cli', { testImports: ['example.test/m/store'] }),
    pkg('web', { embeds: ['templates/page.html'] }),
    pkg('other'),
  ];
  const targets = (files: string[]) => {
    const plan = selectPackages(ROOT, files, packages, RUN);
    return plan.kind === 'fast' ? plan.targets : plan;
  };

  it('follows code imports transitively, and test imports one step', () => {
    expect(targets(['model/model.go'])).toEqual(['./api', './cli', './model', './store']);
    expect(targets(['store/store.go'])).toEqual(['./api', './cli', './store']);
  });

  it('keeps a change to tests or testdata to its own package', () => {
    expect(targets(['model/model_test.go', 'model/testdata/golden.json'])).toEqual(['./model']);
  });

  it('maps an embedded file to the package that embeds it; an unknown file means the full run', () => {
    expect(targets(['web/templates/page.html'])).toEqual(['./web']);
    expect(targets(['web/assets/logo.png'])).toMatchObject({ kind: 'full', why: 'web/assets/logo.png is in no package go list knows of (a deleted package, or a folder go ignores)' });
  });

  it('runs everything when another package does not parse: its imports are unknown', () => {
    const broken = [...packages, pkg('bad', { error: 'expected declaration, found oops' })];
    expect(selectPackages(ROOT, ['model/model.go'], broken, RUN)).toMatchObject({ kind: 'full', why: 'go list reports a problem in ./bad: expected declaration, found oops' });
    expect(selectPackages(ROOT, ['bad/bad.go'], broken, RUN)).toMatchObject({ kind: 'fast', targets: ['./bad'] });
  });

  it('says when every package is reached', () => {
    expect(selectPackages(ROOT, ['a/a.go'], [pkg('a'), pkg('b', { imports: ['example.test/m/a'] })], RUN)).toMatchObject({ kind: 'full', why: 'all 2 packages reach the change' });
  });

  it('parses go list\'s stream of JSON objects', () => {
    const stdout = '{\n\t"Dir": "/r/a",\n\t"ImportPath": "m/a",\n\t"Imports": ["m/b"],\n\t"XTestImports": ["m/a"],\n\t"Error": {"Err": "a \\"quoted\\" } brace"}\n}\n{\n\t"Dir": "/r/b",\n\t"ImportPath": "m/b"\n}\n';
    expect(parseGoList(stdout)).toEqual([
      { importPath: 'm/a', dir: '/r/a', imports: ['m/b'], testImports: ['m/a'], embeds: [], error: 'a "quoted" } brace' },
      { importPath: 'm/b', dir: '/r/b', imports: [], testImports: [], embeds: [], error: undefined },
    ]);
  });
});

describe('selectMembers (cargo)', () => {
  const member = (name: string, deps: Array<{ dir: string; dev: boolean }> = []) => ({ id: `path+file://${ROOT}/${name}#0.1.0`, name, dir: `${ROOT}/${name}`, deps });
  // app depends on core; bench-kit dev-depends on app; leaf stands alone.
  const members = [
    member('core'),
    member('app', [{ dir: `${ROOT}/core`, dev: false }]),
    member('bench-kit', [{ dir: `${ROOT}/app`, dev: true }]),
    member('leaf'),
  ];
  const workspace: CargoWorkspace = { root: ROOT, members };
  const run = ['cargo', 'test', '{files}'];

  it('follows dependencies transitively, dev-dependencies one step', () => {
    expect(selectMembers(ROOT, ['core/src/lib.rs'], workspace, run)).toMatchObject({ kind: 'fast', targets: ['-p', 'app', '-p', 'bench-kit', '-p', 'core'] });
    expect(selectMembers(ROOT, ['core/tests/api.rs'], workspace, run)).toMatchObject({ kind: 'fast', targets: ['-p', 'core'] });
  });

  it('narrows from a member\'s folder too, its files named from there', () => {
    expect(selectMembers(`${ROOT}/app`, ['src/lib.rs'], workspace, run)).toMatchObject({ kind: 'fast', targets: ['-p', 'app', '-p', 'bench-kit'] });
  });

  it('runs the full command when every crate is reached', () => {
    expect(selectMembers(ROOT, ['core/src/lib.rs', 'leaf/src/lib.rs'], workspace, run)).toMatchObject({ kind: 'full', why: 'all 4 crates of the workspace reach the change' });
  });

  it('parses cargo metadata', () => {
    const text = JSON.stringify({
      workspace_root: '/r',
      workspace_members: ['a-id'],
      packages: [{ id: 'a-id', name: 'a', manifest_path: '/r/a/Cargo.toml', dependencies: [{ name: 'b', kind: 'dev', path: '/r/b' }, { name: 'serde', kind: null }] }],
    });
    expect(parseCargoMetadata(text)).toEqual({ root: '/r', members: [{ id: 'a-id', name: 'a', dir: '/r/a', deps: [{ dir: '/r/b', dev: true }] }] });
  });
});
