/** A gate's name as a file name (logs, caches): a package's gate is `packages/lib:test`. */
export function gateFileName(name: string): string {
  return name.replace(/[/\\:]/g, '~');
}
