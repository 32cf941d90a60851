// Once per run for the `claude` and `harness` projects together: `npm pack` gate (as built) and
// `npm install` the template project the scenarios copy. Fails the run loudly when gate is not built
// or the install fails.
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { checkBuild, prepareTemplate } from './gate-project.mjs';

export interface GateTemplate {
  /** the installed project each scenario copies with `cp -a` */
  dir: string;
  tarball: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    gateTemplate: GateTemplate;
  }
}

interface Shared {
  template: ReturnType<typeof prepareTemplate>;
  users: number;
}

// Both projects name this file as their globalSetup and vitest runs it once for each, in the same
// process: the first makes the template, the last to finish removes it.
const KEY = Symbol.for('stopgate.tests.gateTemplate');
const store = globalThis as typeof globalThis & { [KEY]?: Shared };

export default function setup(project: TestProject): () => void {
  let shared = store[KEY];
  if (!shared) {
    const warning = checkBuild();
    if (warning) console.warn(`[claude] warning: ${warning}`);
    const template = prepareTemplate();
    console.log(`[claude] gate packed in ${template.packMs} ms, template installed in ${template.installMs} ms: ${template.dir}`);
    shared = { template, users: 0 };
    store[KEY] = shared;
  }
  shared.users += 1;
  const { template } = shared;
  project.provide('gateTemplate', { dir: template.dir, tarball: template.tarball });
  return () => {
    const current = store[KEY];
    if (!current) return;
    current.users -= 1;
    if (current.users > 0) return;
    delete store[KEY];
    rmSync(current.template.base, { recursive: true, force: true });
  };
}
