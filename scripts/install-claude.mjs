#!/usr/bin/env node
// Installs the real Claude Code CLI, pinned, into .cache/claude-code/<version>/ for the
// end-to-end tests, and prints the path of its binary. Safe to run twice.
import { join } from 'node:path';
import { cliVersion } from './cli-versions.mjs';
import { installPinned, versionOf } from './pinned-install.mjs';

const VERSION = cliVersion('claude'); // scripts/cli-versions.mjs
const PACKAGE = '@anthropic-ai/claude-code';

// The native binary ships in an optional per-platform package; the wrapper's postinstall
// only copies it over a stub, so point at the platform package itself (works with or
// without install scripts).
function platformKey() {
  const { platform, arch } = process;
  if (platform !== 'linux') return `${platform}-${arch}`;
  const glibc = 'glibcVersionRuntime' in process.report.getReport().header;
  return `linux-${arch}${glibc ? '' : '-musl'}`;
}

const binRelative = join('node_modules', `${PACKAGE}-${platformKey()}`, process.platform === 'win32' ? 'claude.exe' : 'claude');

installPinned({
  script: 'install-claude',
  cacheName: 'claude-code',
  version: VERSION,
  spec: `${PACKAGE}@${VERSION}`,
  npmFlags: [
    '--engine-strict=false', // the package says node>=22, but its bin is native
    '--include=optional', // the native binary lives in an optional dependency
  ],
  binRelative,
  isInstalled: (dir) => versionOf([join(dir, binRelative)], (home) => ({ CLAUDE_CONFIG_DIR: home }))?.split(' ')[0] === VERSION,
});
