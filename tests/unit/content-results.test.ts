import { describe, expect, it } from 'vitest';
import type { Scope } from '../../src/config/config-tree.js';
import type { ResolvedGate } from '../../src/config/load-config.js';
import type { GateSelection } from '../../src/plan/select-gates.js';
import { makeSnapshot } from '../../src/snapshot/snapshot.js';
import { contentKey } from '../../src/state/content-results.js';

const gate: ResolvedGate = {
  name: 'apps/web:test',
  shortName: 'test',
  configDir: '/repo/apps/web',
  preset: undefined,
  run: ['node', '--test'],
  shell: false,
  on: ['**/*.js'],
  ignore: [],
  timeoutSeconds: 300,
  filter: 'node-test',
  tier: undefined,
  fastOff: false,
  cwd: '/repo/apps/web',
  env: {},
  retries: 0,
};
const dependent: GateSelection = { gate, run: true, reason: '', files: [], partial: true, upstream: ['packages/shared/a.js'] };
const scope: Scope = {
  paths: [],
  upstream: { paths: ['packages/shared/a.js'], why: '' },
  content: { related: ['/repo/apps/web', '/repo/packages/shared'], packages: ['/repo/apps/web', '/repo/packages/shared', '/repo/packages/leaf', '/repo/apps/api'] },
};
const key = (files: Record<string, string>, selection = dependent, head = 'c1') => contentKey(selection, scope, 'config', makeSnapshot(head, files), '/repo');
const base = { 'packages/shared/a.js': 'h1' };

describe("a dependent's content key", () => {
  it('ignores changes in packages it does not depend on', () => {
    expect(key({ ...base, 'packages/leaf/x.js': 'h2', 'apps/api/y.js': 'h3' })).toBe(key(base));
  });

  it('changes with a file of its own, of a package it depends on, outside every package, or the commit', () => {
    const first = key(base);
    expect(key({ 'packages/shared/a.js': 'h9' })).not.toBe(first);
    expect(key({ ...base, 'packages/shared/b.js': 'h2' })).not.toBe(first);
    expect(key({ ...base, 'apps/web/src/x.js': 'h2' })).not.toBe(first);
    expect(key({ ...base, 'vitest.config.ts': 'h2' })).not.toBe(first);
    expect(key(base, dependent, 'c2')).not.toBe(first);
  });

  it('is only for a gate that runs because of what it depends on', () => {
    expect(key(base, { ...dependent, files: ['src/x.js'] })).toBeUndefined();
    expect(key(base, { ...dependent, upstream: undefined })).toBeUndefined();
    expect(key(base, { ...dependent, run: false })).toBeUndefined();
  });
});
