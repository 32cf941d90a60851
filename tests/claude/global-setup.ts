// Once per run of the `claude` and `harness` projects: `npm pack` gate (as built) and `npm install` the template
// project the scenarios copy. Fails the run loudly when gate is not built or the install fails.
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

export default function setup(project: TestProject): () => void {
  const warning = checkBuild();
  if (warning) console.warn(`[claude] warning: ${warning}`);
  const template = prepareTemplate();
  console.log(`[claude] gate packed in ${template.packMs} ms, template installed in ${template.installMs} ms: ${template.dir}`);
  project.provide('gateTemplate', { dir: template.dir, tarball: template.tarball });
  return () => rmSync(template.base, { recursive: true, force: true });
}
