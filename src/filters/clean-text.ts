import stripAnsi from 'strip-ansi';

const LEFTOVER_ESCAPES = [
  /\x1b[()*+][0-9A-Za-z]/g, // charset selects, like ESC ( B
  /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g, // OSC sequences strip-ansi missed, hyperlinks included
  /\x1b\[[0-9;?]*$/g, // a CSI sequence cut off at the end of the capture
  /\x1b/g, // any lone ESC left over
  /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, // other control characters (not \t, \n, \r)
];

/** Plain text from terminal output: no escapes, no control characters, progress rewrites resolved. */
export function cleanText(raw: string): string[] {
  let text = stripAnsi(raw);
  for (const pattern of LEFTOVER_ESCAPES) text = text.replace(pattern, '');
  return text.split('\n').map((line) => {
    // A carriage return redraws the line: only what was drawn last was ever visible.
    const trimmed = line.replace(/\r+$/, '');
    const lastReturn = trimmed.lastIndexOf('\r');
    return (lastReturn === -1 ? trimmed : trimmed.slice(lastReturn + 1)).trimEnd();
  });
}
