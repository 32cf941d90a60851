import { describe, expect, it } from 'vitest';
import { isPosix, refusalFor } from '../../src/platform.js';

describe('which commands run where', () => {
  it('Linux and macOS run everything', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      expect(isPosix(platform)).toBe(true);
      for (const command of ['init', 'check', 'status', 'explain', 'doctor', 'run', 'uninstall']) expect(refusalFor(command, platform)).toBeUndefined();
    }
  });

  it('Windows refuses the commands that run gates or hook commands, naming the command and the doc', () => {
    expect(isPosix('win32')).toBe(false);
    for (const command of ['init', 'check', 'status', 'explain', 'doctor', 'mcp', 'ci']) {
      expect(refusalFor(command, 'win32')).toBe(
        `"gate ${command}" does not run on Windows yet: gate runs its gates in process groups and hook commands through /bin/sh, which need Linux or macOS (WSL counts). See docs/windows.md.`,
      );
    }
  });

  it('Windows still runs what needs no process groups or shell; run is the hook and never refuses', () => {
    for (const command of ['run', 'uninstall', 'log', 'stats', 'filter', '--version', '--help', undefined, 'no-such-command']) {
      expect(refusalFor(command, 'win32')).toBeUndefined();
    }
  });
});
