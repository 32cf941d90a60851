import { managerCommands, type PackageManager } from '../package/package-manager.js';

/** The question to ask about a hook command that was not found, in the words of how it reaches gate. */
export function installAdvice(command: string, manager: PackageManager): string {
  if (/node_modules\/\.bin\/gate\b|bin\/gate\.cjs\b/.test(command)) return `Is stopgate installed (${managerCommands(manager).install})?`;
  if (/\bnpx\b.*\bstopgate@/.test(command)) return 'Can npx fetch stopgate here (network, or the npm cache)?';
  return 'Is gate installed globally (npm i -g stopgate) and on this PATH?';
}
