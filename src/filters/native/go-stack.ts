const GOROUTINE = /^goroutine \d+ \[.*\]:$/;
const FRAME_FILE = /^\t(\S.*\.go):\d+(?: \+0x[0-9a-f]+)?$/;
const FRAME_CALL = /^(?:created by )?\S+(?:\(.*\))?(?: in goroutine \d+)?$/;
// The runtime, the testing package and the rest of the standard library, and modules in the cache.
const LIBRARY_CALL = /^(?:created by )?(?:runtime|testing|reflect|sync|internal\/[\w/]+|os|syscall|panic)[.(]/;
const LIBRARY_FILE = /[\\/]usr[\\/](?:local[\\/])?(?:lib[\\/])?go[^\\/]*[\\/]src[\\/]|[\\/]src[\\/](?:runtime|testing)[\\/]|[\\/]pkg[\\/]mod[\\/]|golang\.org[\\/]toolchain/;

/**
 * A panic's goroutine dumps without the runtime, testing and library frames, and without what
 * changes from run to run (goroutine numbers, argument words, PC offsets).
 */
export function trimGoStack(lines: string[]): string[] {
  const kept: string[] = [];
  let inStack = false;
  let call: string | undefined;
  for (const line of lines) {
    if (GOROUTINE.test(line)) {
      inStack = true;
      continue;
    }
    if (inStack && FRAME_FILE.test(line)) {
      const file = line.replace(/ \+0x[0-9a-f]+$/, '');
      if (call !== undefined && !LIBRARY_CALL.test(call) && !LIBRARY_FILE.test(file)) kept.push(call.replace(/\([^()]*\)$/, '(...)'), file);
      call = undefined;
      continue;
    }
    if (inStack && FRAME_CALL.test(line)) {
      if (call !== undefined) kept.push(call);
      call = line;
      continue;
    }
    if (call !== undefined) kept.push(call);
    call = undefined;
    inStack = false;
    kept.push(line);
  }
  return kept;
}
