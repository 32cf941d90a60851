#!/usr/bin/env node
// Installs the real Gemini CLI, pinned, into .cache/gemini-cli/<version>/ for the end-to-end tests,
// and prints the path of its entry script (run it with node). Safe to run twice; needs no terminal.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliVersion } from './cli-versions.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const VERSION = cliVersion('gemini'); // scripts/cli-versions.mjs
const PACKAGE = '@google/gemini-cli';
const entryRelative = join('node_modules', ...PACKAGE.split('/'), 'bundle', 'gemini.js');

/** The version the installed package says it is (cheap: the check on every test run). */
function packageVersion(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', ...PACKAGE.split('/'), 'package.json'), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

installPinned({
  script: 'install-gemini',
  cacheName: 'gemini-cli',
  version: VERSION,
  spec: `${PACKAGE}@${VERSION}`,
  // The CLI is one bundle (engines: node>=20); its optional deps are node-pty and keytar, which
  // only the interactive terminal and keychain logins use.
  npmFlags: ['--omit=optional'],
  binRelative: entryRelative,
  // After an install, the CLI itself must say it is the pinned version (one process: no relaunch).
  prepare: (dir) => {
    const said = versionOf([process.execPath, join(dir, entryRelative)], () => ({ GEMINI_CLI_NO_RELAUNCH: 'true' }));
    if (said !== VERSION) throw new Error(`the installed gemini says ${said ?? 'nothing'} for --version, not ${VERSION}`);
  },
  isInstalled: (dir) => packageVersion(dir) === VERSION && existsSync(join(dir, entryRelative)),
});
