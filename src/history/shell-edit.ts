/**
 * Does a shell command write files? Agents edit through the shell too (a heredoc into a file, Codex's
 * `apply_patch`, `sed -i`). Only the plain forms are recognised: a redirect of a program that prints
 * text, an in-place editor, a patch tool. A build that writes output files is not an edit.
 */
const PRINTERS = new Set(['cat', 'echo', 'printf']);
const IN_PLACE = new Set(['sed', 'perl', 'ruby']);
const PATCHERS = new Set(['apply_patch', 'applypatch', 'patch', 'tee']);

export function writesFiles(command: string): boolean {
  return command.split(/&&|\|\||[;\n]/).some((part) => writesInPart(part.trim()));
}

function writesInPart(part: string): boolean {
  const pipeline = part.split('|').map((piece) => piece.trim());
  return pipeline.some((piece) => {
    const [program = '', ...args] = piece.split(/\s+/);
    if (PATCHERS.has(program)) return true;
    if (program === 'git' && args[0] === 'apply') return true;
    if (IN_PLACE.has(program) && args.some((arg) => /^-[a-z]*i/.test(arg))) return true;
    return PRINTERS.has(program) && /(?:^|[^0-9&>])>>?\s*(?!&|\/dev\/)[^\s>&]/.test(piece);
  });
}
