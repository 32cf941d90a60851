import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fullRunFirst, type FastPlan, type Planner } from './planner.js';
import { parseCargoMetadata, type CargoMember, type CargoWorkspace } from './parse-cargo-metadata.js';
import { listNames, reachDependents } from './reach-dependents.js';
import { runTool } from './run-tool.js';

// What no other crate can depend on: a change here reaches only its own crate's run.
const OWN_TARGETS = /^(?:tests|benches|examples)\//;

/**
 * cargo test / clippy: the workspace members holding the changed files and every member that
 * depends on them through path dependencies, transitively (dev-dependencies: one step, their tests
 * only) — from `cargo metadata --no-deps`, as `-p NAME` pairs. Every member counts, default-members
 * or not: they decide only what a bare `cargo test` runs, and the full run is `--workspace`
 * (ripgrep, issue 38: its root package is the only default member, and its crates/ went untested).
 */
export const planCargoMembers: Planner = async (input) => {
  const full = fullRunFirst(input, 'crate');
  if (full) return full;
  const { gate, files } = input;
  // RUSTUP_AUTO_INSTALL=0: planning never downloads a toolchain that rust-toolchain.toml names.
  const listed = await runTool(gate, 'cargo', ['metadata', '--format-version', '1', '--no-deps', '--offline'], { RUSTUP_AUTO_INSTALL: '0' });
  if (!listed.ok) return { kind: 'full', why: `${listed.problem}, so the crates the change reaches are unknown` };
  let workspace: CargoWorkspace;
  try {
    workspace = parseCargoMetadata(listed.stdout);
  } catch (error) {
    return { kind: 'full', why: `cargo metadata printed what gate could not read (${error instanceof Error ? error.message : String(error)})` };
  }
  return selectMembers(real(gate.cwd), files, workspace, gate.tier.run);
};

/** `cwd`: the gate's folder, which `files` are relative to; `-p` picks a member from anywhere in the workspace. */
export function selectMembers(cwd: string, files: string[], workspace: CargoWorkspace, run: string[]): FastPlan {
  const members = workspace.members.map((member) => ({ ...member, dir: real(member.dir) }));
  if (members.length <= 1) return { kind: 'full', why: 'a single package: nothing to narrow' };
  const changed = new Set<CargoMember>();
  const testsChanged = new Set<CargoMember>();
  for (const file of files) {
    const path = resolve(cwd, file);
    const owner = members.filter((member) => path.startsWith(member.dir + sep)).sort((a, b) => b.dir.length - a.dir.length)[0];
    if (!owner) return { kind: 'full', why: `${file} is in no workspace member` };
    (OWN_TARGETS.test(relative(owner.dir, path).split(sep).join('/')) ? testsChanged : changed).add(owner);
  }
  const byDir = new Map(members.map((member) => [member.dir, member]));
  const dependents = new Map<CargoMember, CargoMember[]>();
  const devDependents = new Map<CargoMember, CargoMember[]>();
  for (const member of members) {
    for (const dep of member.deps) {
      const target = byDir.get(real(dep.dir));
      if (!target) continue;
      const index = dep.dev ? devDependents : dependents;
      const list = index.get(target);
      if (list) list.push(member);
      else index.set(target, [member]);
    }
  }
  const reached = reachDependents(changed, (member) => dependents.get(member));
  const tested = new Set([...reached, ...testsChanged]);
  for (const member of reached) for (const tester of devDependents.get(member) ?? []) tested.add(tester);

  if (tested.size === members.length) return { kind: 'full', why: `all ${members.length} crates of the workspace reach the change` };
  const names = [...tested].map((member) => member.name).sort();
  return {
    kind: 'fast',
    run,
    targets: names.flatMap((name) => ['-p', name]),
    why: `only ${names.length} of ${members.length} crates: ${listNames(names)} (the changed ones and those that depend on them)`,
  };
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
