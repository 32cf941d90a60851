import picomatch from 'picomatch';

/**
 * Whether a changed path matches any of a gate's globs (`on`, `ignore`, `fullRunOn`, `affectsAll`).
 * The `s` flag lets picomatch's `**` and `?` (built on `.`) match a newline or other line break in a
 * name, as they match its other characters: a folder named `a⏎b` otherwise matched no glob and its
 * files' gates did not run. Dot files are matched too: a change there is a change.
 */
export function pathMatcher(globs: string[]): (path: string) => boolean {
  return globs.length === 0 ? () => false : picomatch(globs, { dot: true, flags: 's' });
}
