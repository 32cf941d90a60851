import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { openProject } from './open-project.js';
import { statusView } from './status-view.js';

/** `gate status`: what a stop would do now and why. */
export async function statusCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let json: boolean;
  try {
    json = parseArgs({ args, options: { json: { type: 'boolean', default: false } } }).values.json;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate status [--json]`);
  }
  const project = openProject(process.cwd());
  const view = await statusView(project, env);
  if (json) {
    process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `project:   ${view.projectDir}`,
    `config:    ${view.config.join(', ')}`,
    view.workspaces ? `workspace: ${view.workspaces} (a changed package's dependents run too)` : '',
    view.packageConfigs.length > 0 ? `packages:  ${view.packageConfigs.join(', ')} (their own config covers their files)` : '',
    ...view.ignoredSettings.map((line) => `note:      ${line}`),
    ...view.notices.map((line) => `note:      ${line}`),
    view.gateOff ? 'GATE=0 is set: every stop is allowed unchecked.' : '',
    ...view.runningStops.map((stop) => `running:   a stop of ${stop.summary}`),
    `baseline:  ${view.baseline}`,
    `changed:   ${view.changedFiles.length === 0 ? 'nothing' : view.changedFiles.slice(0, 20).join(', ') + (view.changedFiles.length > 20 ? ` … (${view.changedFiles.length} in all)` : '')}`,
    view.alreadyPassed ? 'verdict:   this exact tree already passed every gate; a stop would be allowed at once.' : 'gates at the next stop:',
    ...view.gates.flatMap((gate) => [
      `  ${gate.runs ? 'run ' : 'skip'} ${gate.name}: ${gate.cached ? `${gate.reason}, but it passed on exactly this state before (cached)` : gate.reason}`,
      ...(gate.command ? [`       ${gate.fast ? 'fast tier' : 'full run'}: ${gate.tier && gate.tier !== 'the full run' ? `${gate.tier}: ` : ''}${gate.command}`] : []),
      ...(gate.program ? [`       program: ${gate.program.path ?? gate.program.name}, ${gate.program.from}`] : []),
    ]),
    `blocks:    ${view.blockedSessions.length === 0 ? 'no session is blocked' : view.blockedSessions.map((s) => `${s.session} ${s.blocks}/${project.config.maxBlocks}`).join(', ')}`,
    `logs:      ${view.logs}`,
  ];
  process.stdout.write(`${lines.filter(Boolean).join('\n')}\n`);
  return 0;
}
