// Fresh copies of the template project (gate packed and installed once per run by the global
// setup, tests/claude/global-setup.ts), each removed after its test together with its mock server.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, inject } from 'vitest';
import { makeProject, type GateProject } from '../claude/gate-project.mjs';

export interface NewProject {
  /** Put the repository under a folder whose name has a space: hook commands must quote paths. */
  spacedPath?: boolean;
  /** Closes what serves this project's agent (its mock model). */
  closeWith: () => Promise<void>;
}

export function useTemplateProjects(label: string): (options: NewProject) => GateProject {
  const open: Array<{ project: GateProject; close: () => Promise<void>; extra: string | undefined }> = [];
  afterEach(async () => {
    for (const { project, close, extra } of open.splice(0)) {
      await close();
      project.cleanup();
      if (extra) rmSync(extra, { recursive: true, force: true });
    }
  });
  return ({ spacedPath = false, closeWith }) => {
    const extra = spacedPath ? realpathSync(mkdtempSync(join(tmpdir(), `stopgate ${label} `))) : undefined;
    const project = withTmpdir(extra, () => makeProject(inject('gateTemplate').dir));
    open.push({ project, close: closeWith, extra });
    return project;
  };
}

/** makeProject makes its folder under os.tmpdir(), which follows TMPDIR. */
function withTmpdir<T>(dir: string | undefined, make: () => T): T {
  if (dir === undefined) return make();
  const saved = process.env['TMPDIR'];
  process.env['TMPDIR'] = dir;
  try {
    return make();
  } finally {
    if (saved === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = saved;
  }
}
