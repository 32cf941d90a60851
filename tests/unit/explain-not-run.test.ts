import { describe, expect, it } from 'vitest';
import { explainNodeMissing } from '../../src/doctor/explain-not-run.js';
import { judgeDelivery } from '../../src/doctor/judge-delivery.js';
import { ADAPTERS } from '../../src/harness/adapters.js';

const node = { onPath: true, execPath: '/home/u/.nvm/versions/node/v20.11.0/bin/node' };

describe('explainNodeMissing', () => {
  it("names node and the fix for env's and sh's words, and for gate's own launcher", () => {
    for (const stderr of ["/usr/bin/env: 'node': No such file or directory\n", 'env: node: No such file or directory\n', '/repo/node_modules/.bin/gate: 12: exec: node: not found\n', 'gate: node was not found (not on PATH, …)\n']) {
      const why = explainNodeMissing(stderr, node);
      expect(why).toContain('node is not on the PATH the agent gets');
      expect(why).toContain('GATE_NODE=/home/u/.nvm/versions/node/v20.11.0/bin/node');
    }
  });

  it('a program not found while node is not on PATH either: a global gate lives beside node', () => {
    expect(explainNodeMissing('sh: 1: gate: not found\n', { ...node, onPath: false })).toContain('node is not on this PATH either');
  });

  it('says nothing when node is not the cause', () => {
    expect(explainNodeMissing('sh: 1: gate: not found\n', node)).toBeUndefined();
  });

  it("the delivery probe's exit 127 names node instead of a missing install", () => {
    const finding = judgeDelivery(ADAPTERS.claude, 'gate run', { status: 127, signal: null, stdout: '', stderr: "/usr/bin/env: 'node': No such file or directory\n", node });
    expect(finding.message).toContain('node is not on the PATH the agent gets');
    expect(finding.message).not.toContain('Is stopgate installed');
  });
});
