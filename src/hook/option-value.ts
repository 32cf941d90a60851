/** `--name value` or `--name=value`, without loading node:util on the hot path. */
export function optionValue(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i]?.startsWith(`${name}=`)) return args[i]?.slice(name.length + 1);
  }
  return undefined;
}
