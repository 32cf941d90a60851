import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installAdvice } from '../../src/doctor/install-advice.js';
import { classifyInstall, gateCommandFor } from '../../src/package/gate-command.js';
import { detectManager, managerCommands, projectRunner } from '../../src/package/package-manager.js';

describe('classifyInstall: the install the running gate came from', () => {
  it.each([
    ['a global npm install, run through its bin link', '/usr/local/bin/gate', '/home/ann/click', { kind: 'global' }],
    ['nvm\'s global install', '/home/ann/.nvm/versions/node/v20.11.0/bin/gate', '/home/ann/click', { kind: 'global' }],
    ['a global install run by its full path', '/usr/local/lib/node_modules/stopgate/bin/gate.cjs', '/home/ann/click', { kind: 'global' }],
    ['pnpm\'s global store', '/home/ann/.local/share/pnpm/global/5/node_modules/stopgate/bin/gate.cjs', '/home/ann/click', { kind: 'global' }],
    ['a checkout run by its path', '/src/stopgate/bin/gate.cjs', '/home/ann/app', { kind: 'global' }],
    ['a pinned npx', '/home/ann/.npm/_npx/4f1c2a/node_modules/.bin/gate', '/home/ann/click', { kind: 'npx' }],
    ['the project\'s node_modules/.bin', '/home/ann/app/node_modules/.bin/gate', '/home/ann/app', { kind: 'local', root: '/home/ann/app' }],
    ['pnpm\'s shim, from a package of the workspace', '/home/ann/mono/node_modules/.pnpm/stopgate@0.1.0/node_modules/stopgate/bin/gate.cjs', '/home/ann/mono/packages/core', { kind: 'local', root: '/home/ann/mono' }],
    ['Yarn Plug\'n\'Play\'s unplugged folder', '/home/ann/app/.yarn/unplugged/stopgate-npm-0.1.0/node_modules/stopgate/bin/gate.cjs', '/home/ann/app', { kind: 'local', root: '/home/ann/app' }],
    ['no script path', undefined, '/home/ann/app', { kind: 'global' }],
  ])('%s', (_, script, cwd, expected) => {
    expect(classifyInstall(script, [cwd])).toEqual(expected);
  });

  it('a hook run after the agent cd-ed out of the project is still the project\'s install (its project directory)', () => {
    expect(classifyInstall('/home/ann/app/node_modules/.bin/gate', ['/tmp', '/home/ann/app'])).toEqual({ kind: 'local', root: '/home/ann/app' });
    expect(classifyInstall('/home/ann/app/node_modules/.bin/gate', ['/tmp'])).toEqual({ kind: 'global' });
  });

  it('compares the project folder as resolved (macOS /var is /private/var)', () => {
    const real = (path: string) => path.replace(/^\/var\//, '/private/var/');
    expect(classifyInstall('/var/folders/x/app/node_modules/.bin/gate', ['/private/var/folders/x/app'], real)).toEqual({ kind: 'local', root: '/private/var/folders/x/app' });
  });
});

describe('gateCommandFor: what a hint tells the user to type', () => {
  it('never `npx gate` for a global install (npx would fetch an unrelated package named gate)', () => {
    expect(gateCommandFor({ kind: 'global' }, 'npm', '')).toBe('gate');
  });

  it('the pinned package for npx, the project\'s manager for a local install', () => {
    expect(gateCommandFor({ kind: 'npx' }, 'npm', '1.2.3')).toBe('npx stopgate@1.2.3');
    const local = { kind: 'local', root: '/app' } as const;
    expect(['npm', 'pnpm', 'yarn', 'bun'].map((manager) => gateCommandFor(local, manager as 'npm', ''))).toEqual(['npx gate', 'pnpm exec gate', 'yarn gate', 'bunx gate']);
  });
});

describe('managerCommands', () => {
  it('says install and add in each manager\'s words; pnpm needs -w in a workspace root', () => {
    expect(managerCommands('npm')).toEqual({ install: 'npm install', addStopgate: 'npm i -D stopgate', exec: 'npx' });
    expect(managerCommands('pnpm')).toEqual({ install: 'pnpm install', addStopgate: 'pnpm add -D stopgate', exec: 'pnpm exec' });
    expect(managerCommands('pnpm', { workspaceRoot: true }).addStopgate).toBe('pnpm add -D -w stopgate');
    expect(managerCommands('yarn')).toEqual({ install: 'yarn install', addStopgate: 'yarn add -D stopgate', exec: 'yarn' });
    expect(managerCommands('bun')).toEqual({ install: 'bun install', addStopgate: 'bun add -d stopgate', exec: 'bunx' });
  });
});

describe('detectManager', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
  const project = (files: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), 'gate-manager-'));
    // The repository's root: no folder above it (the temp folder's) is asked.
    mkdirSync(join(dir, '.git'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };

  it('reads the lockfile, else packageManager, else npm', () => {
    expect(detectManager(project({ 'pnpm-lock.yaml': '', 'package.json': '{}' }))).toBe('pnpm');
    expect(detectManager(project({ 'bun.lockb': '' }))).toBe('bun');
    expect(detectManager(project({ 'package.json': '{ "packageManager": "yarn@4.1.0" }' }))).toBe('yarn');
    expect(detectManager(project({ 'package.json': '{ "name": "app" }' }))).toBe('npm');
    expect(detectManager(project({}))).toBe('npm');
  });

  it('a workspace member\'s manager is its root\'s: pnpm\'s lockfile or packageManager is at the root alone', () => {
    expect(detectManager(join(project({ 'pnpm-lock.yaml': '', 'packages/solid-urql/package.json': '{ "name": "solid-urql" }' }), 'packages/solid-urql'))).toBe('pnpm');
    expect(projectRunner(join(project({ 'pnpm-lock.yaml': '', 'packages/solid-urql/package.json': '{}' }), 'packages/solid-urql'))).toBe('pnpm exec');
    expect(detectManager(join(project({ 'package.json': '{ "packageManager": "yarn@4.1.0" }', 'apps/web/package.json': '{}' }), 'apps/web'))).toBe('yarn');
  });
});

describe('installAdvice: what a hook command that was not found asks', () => {
  it('names the install the command relies on, in the project\'s manager\'s words', () => {
    expect(installAdvice('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run', 'pnpm')).toBe('Is stopgate installed (pnpm install)?');
    expect(installAdvice('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run', 'npm')).toBe('Is stopgate installed (npm install)?');
    expect(installAdvice('gate run', 'npm')).toBe('Is gate installed globally (npm i -g stopgate) and on this PATH?');
    expect(installAdvice('npx --yes stopgate@0.1.0 run', 'npm')).toBe('Can npx fetch stopgate here (network, or the npm cache)?');
  });
});
