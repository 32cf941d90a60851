import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** What bin/gate.cjs prints when it finds no node anywhere (its sh part). */
const LAUNCHER_FOUND_NONE = 'gate: node was not found';
/** An older bin (`#!/usr/bin/env node`), or a shim that runs `node` from PATH: env's or sh's words. */
const NODE_MISSING = /env: '?‘?node'?’?: No such file or directory|(?:^|\s)node: (?:not found|No such file or directory|command not found)/m;

/**
 * Why a hook command exited 127, with the fix, when node is the cause: node off the hook's PATH is
 * told apart from a gate that is not installed, because the fixes differ (the agent's PATH, not npm
 * install). Undefined when nothing points at node.
 */
export function explainNodeMissing(stderr: string, node: { onPath: boolean; execPath: string }): string | undefined {
  const fix = `Fix: start the agent (or the editor that starts it) from a shell where \`node\` runs, or set GATE_NODE=${node.execPath} in the environment it starts with`;
  if (stderr.includes(LAUNCHER_FOUND_NONE)) {
    return `node is not on the PATH the agent gets, nor where nvm, volta, fnm, asdf, mise or Homebrew put it (exit 127): every stop would pass unchecked. ${fix}`;
  }
  if (NODE_MISSING.test(stderr)) {
    return `node is not on the PATH the agent gets (exit 127: ${firstLine(stderr)}): the hook never starts, so every stop would pass unchecked. Update stopgate (its bin finds node under nvm, volta, fnm, asdf and Homebrew itself), or: ${fix.slice(5)}`;
  }
  if (!node.onPath) {
    return `not found (exit 127), and node is not on this PATH either — a global gate or npx lives beside node (${dirname(node.execPath)}), so neither runs: every stop would pass unchecked. Install stopgate in the project (its hook finds node itself), or: ${fix.slice(5)}`;
  }
  return undefined;
}

/** Whether `node` is a program on this PATH (what the hook's `env node` and the gates' npx need). */
export function nodeOnPath(path: string | undefined): boolean {
  return (path ?? '').split(delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(join(dir, 'node'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
