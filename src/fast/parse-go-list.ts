/** One package as `go list -e -json=…` describes it. */
export interface GoPackage {
  importPath: string;
  /** Absolute. */
  dir: string;
  imports: string[];
  /** What the package's _test.go files import, in-package and external (`package x_test`) alike. */
  testImports: string[];
  /** Files `//go:embed` pulls in, relative to `dir`, tests' included. */
  embeds: string[];
  error: string | undefined;
}

/**
 * `go list -json` prints one JSON object per package, back to back, not an array
 * (https://pkg.go.dev/cmd/go#hdr-List_packages_or_modules). Throws on anything else.
 */
export function parseGoList(stdout: string): GoPackage[] {
  return splitObjects(stdout).map((text) => toPackage(JSON.parse(text)));
}

function splitObjects(stdout: string): string[] {
  const objects: string[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < stdout.length; i++) {
    const ch = stdout[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === '}') {
      depth--;
      if (depth === 0) objects.push(stdout.slice(start, i + 1));
    }
  }
  if (depth !== 0 || inString) throw new Error('go list printed an incomplete JSON object');
  return objects;
}

function toPackage(value: unknown): GoPackage {
  if (typeof value !== 'object' || value === null) throw new Error('go list printed something other than a package');
  const fields = new Map<string, unknown>(Object.entries(value));
  const field = (name: string): unknown => fields.get(name);
  const importPath = field('ImportPath');
  const dir = field('Dir');
  if (typeof importPath !== 'string' || typeof dir !== 'string') throw new Error('a package without ImportPath or Dir');
  const error = field('Error');
  const message = typeof error === 'object' && error !== null && 'Err' in error ? String(error.Err) : undefined;
  return {
    importPath,
    dir,
    imports: strings(field('Imports')),
    testImports: [...strings(field('TestImports')), ...strings(field('XTestImports'))],
    embeds: [...strings(field('EmbedFiles')), ...strings(field('TestEmbedFiles')), ...strings(field('XTestEmbedFiles'))],
    error: message,
  };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
