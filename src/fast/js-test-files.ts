import { posix } from 'node:path';
import picomatch from 'picomatch';

/** Which files (relative to the gate's directory, `/`-separated) a runner's full run takes for tests. */
export type TestMatcher = (file: string) => boolean;

const NODE_NAMES = ['**/*.test', '**/*-test', '**/*_test', '**/test-*', '**/test', '**/test/**/*'];

/**
 * `node --test` without file arguments: Node's default patterns, with the TypeScript ones where the
 * Node that runs it strips types by default (23.6, and 22.18 on the 22 line).
 * https://nodejs.org/api/test.html#running-tests-from-the-command-line
 */
export function nodeTestMatcher(nodeVersion: string): TestMatcher {
  const extensions = stripsTypes(nodeVersion) ? 'js,mjs,cjs,ts,mts,cts' : 'js,mjs,cjs';
  // Node 20 walks into dot-directories and takes dot-files; the glob of later Nodes does not.
  // Both skip node_modules, as the planner's walk does.
  return picomatch(NODE_NAMES.map((name) => `${name}.{${extensions}}`), { dot: versionOf(nodeVersion).major <= 20 });
}

export function stripsTypes(nodeVersion: string): boolean {
  const { major, minor } = versionOf(nodeVersion);
  return major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
}

function versionOf(nodeVersion: string): { major: number; minor: number } {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  return { major, minor };
}

export interface MochaFiles {
  /** `spec` entries: files, directories or globs, relative to the gate's directory. */
  spec: string[];
  extension: string[];
  recursive: boolean;
  ignore: string[];
}

/**
 * The files mocha's spec takes, the way mocha looks them up: an existing file is itself, a
 * directory its files with a test extension (not hidden; deeper with `recursive`), a glob what it
 * matches, anything else the name plus an extension. Undefined when a spec entry leaves the directory.
 * https://mochajs.org/#spec
 */
export function mochaTestMatcher(files: MochaFiles, kindOf: (file: string) => 'file' | 'directory' | undefined): TestMatcher | undefined {
  const extensions = files.extension.map((extension) => (extension.startsWith('.') ? extension : `.${extension}`));
  const hasExtension = (file: string) => extensions.some((extension) => file.endsWith(extension));
  const matchers: TestMatcher[] = [];
  for (const entry of files.spec) {
    const spec = posix.normalize(entry.replaceAll('\\', '/')).replace(/\/$/, '');
    if (spec.startsWith('../') || spec === '..' || posix.isAbsolute(spec)) return undefined;
    const kind = kindOf(spec);
    if (kind === 'file') matchers.push((file) => file === spec);
    else if (kind === 'directory') matchers.push(inDirectory(spec, files.recursive, hasExtension));
    else if (picomatch.scan(spec).isGlob) matchers.push(picomatch(spec));
    else matchers.push((file) => extensions.some((extension) => file === spec + extension));
  }
  const ignored = files.ignore.length > 0 ? picomatch(files.ignore.map((pattern) => posix.normalize(pattern))) : () => false;
  return (file) => matchers.some((matches) => matches(file)) && !ignored(file);
}

function inDirectory(dir: string, recursive: boolean, hasExtension: (file: string) => boolean): TestMatcher {
  return (file) => {
    const parent = posix.dirname(file);
    const inside = dir === '.' ? recursive || parent === '.' : parent === dir || (recursive && file.startsWith(`${dir}/`));
    return inside && hasExtension(file) && !posix.basename(file).startsWith('.');
  };
}
