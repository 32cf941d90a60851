import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/doctor/judge-delivery.js';
import { installer } from '../../src/harness/install/claude.js';
import type { ChosenBin } from '../../src/init/hook-command.js';
import { verifyHookBin } from '../../src/init/verify-hook-bin.js';

const globalBin: ChosenBin = { bin: { mode: 'global', relativePath: undefined, program: 'gate' }, why: 'gate is installed globally' };
const localBin: ChosenBin = { bin: { mode: 'local', relativePath: 'node_modules/.bin/gate', program: undefined }, why: 'package.json lists stopgate' };
const notFound = (command: string): Finding => ({ level: 'problem', message: `hook command does not run from /p: ${command} — not found (exit 127): …. Is stopgate installed (npm install)?` });
const runsOnly = (works: string) => (command: string): Finding => (command === works ? { level: 'ok', message: 'runs' } : notFound(command));
const input = { installer, projectDir: '/p', selfPath: '/opt/gate/bin/gate.cjs' };

describe('verifyHookBin', () => {
  it('keeps a command that runs', () => {
    expect(verifyHookBin({ ...input, chosen: globalBin, private: false, runs: runsOnly('gate run') })).toEqual({ chosen: globalBin });
  });

  it('a private install falls back to the gate init ran from, and says why', () => {
    const result = verifyHookBin({ ...input, chosen: globalBin, private: true, runs: runsOnly('/opt/gate/bin/gate.cjs run') });
    expect(installer.command(result.chosen.bin)).toBe('/opt/gate/bin/gate.cjs run');
    expect(result.note).toBe('The hook runs /opt/gate/bin/gate.cjs: "gate run" does not run from /p (not found (exit 127): …).');
  });

  it('a team install stops with the fix; a devDependency not installed yet asks for npm install', () => {
    expect(() => verifyHookBin({ ...input, manager: 'npm', chosen: globalBin, private: false, runs: runsOnly('none') })).toThrow(/Fix: install stopgate in this project \(npm i -D stopgate\) and run "npx gate init" again/);
    expect(() => verifyHookBin({ ...input, manager: 'npm', chosen: localBin, private: false, runs: runsOnly('none') })).toThrow(/Fix: install the project's dependencies \(npm install\), then run "npx gate init" again/);
    expect(() => verifyHookBin({ ...input, chosen: globalBin, private: true, selfPath: undefined, runs: runsOnly('none') })).toThrow(/nothing was written/);
  });

  it('says the fix in the project\'s manager\'s words (npm cannot install in a pnpm workspace), and a global install where there is no package.json', () => {
    expect(() => verifyHookBin({ ...input, manager: 'pnpm', workspaceRoot: true, chosen: globalBin, private: false, runs: runsOnly('none') })).toThrow(/Fix: install stopgate in this project \(pnpm add -D -w stopgate\) and run "pnpm exec gate init" again/);
    expect(() => verifyHookBin({ ...input, manager: 'pnpm', chosen: localBin, private: false, runs: runsOnly('none') })).toThrow(/Fix: install the project's dependencies \(pnpm install\), then run "pnpm exec gate init" again/);
    expect(() => verifyHookBin({ ...input, manager: 'yarn', chosen: localBin, private: false, runs: runsOnly('none') })).toThrow(/\(yarn install\), then run "yarn gate init"/);
    expect(() => verifyHookBin({ ...input, manager: 'bun', chosen: globalBin, private: false, runs: runsOnly('none') })).toThrow(/\(bun add -d stopgate\) and run "bunx gate init"/);
    expect(() => verifyHookBin({ ...input, manager: undefined, chosen: globalBin, private: false, runs: runsOnly('none') })).toThrow(/Fix: install gate globally \(npm i -g stopgate\) and run "gate init" again/);
  });
});
