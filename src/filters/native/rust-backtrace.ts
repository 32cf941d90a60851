const FRAME = /^\s*\d+: (.+)$/;
const AT = /^\s+at (.+?):\d+(?::\d+)?$/;
const LIBRARY_SYMBOL = /^(?:__rustc::|rust_begin_unwind|std::|core::|alloc::|test::|<(?:std|core|alloc|test)::|<fn\(|<\S+ as (?:core|std|alloc)::|__rust_|__libc_start|_start$|main$|start_thread$|clone3?$|<unknown>$)/;
const LIBRARY_PATH = /^\/rustc\/[0-9a-f]+\/library\/|[\\/]\.rustup[\\/]|[\\/]\.cargo[\\/]registry[\\/]|[\\/]rustlib[\\/]src[\\/]/;
const NOISE = /^note: (?:run with `RUST_BACKTRACE=1`|Some details are omitted, run with `RUST_BACKTRACE=full`)/;

/**
 * A panic's output without the backtrace frames of std, core, alloc, the test harness and crates
 * from the registry, without the harness's closure frames, and without the hints about backtraces.
 */
export function trimRustBacktrace(lines: string[]): string[] {
  const kept: string[] = [];
  let frame: { lines: string[]; symbol: string; library: boolean } | undefined;
  let lastSymbol = '';
  const settle = () => {
    if (frame === undefined) return;
    const closure = frame.symbol === `${lastSymbol}::{{closure}}`;
    if (!frame.library && !closure) {
      kept.push(...frame.lines);
      lastSymbol = frame.symbol;
    }
    frame = undefined;
  };
  for (const line of lines) {
    const start = FRAME.exec(line);
    if (start !== null) {
      settle();
      const symbol = (start[1] ?? '').replace(/::h[0-9a-f]{16}$/, '');
      frame = { lines: [line], symbol, library: LIBRARY_SYMBOL.test(symbol) };
      continue;
    }
    const at = AT.exec(line);
    if (at !== null && frame !== undefined) {
      frame.lines.push(line);
      if (LIBRARY_PATH.test(at[1] ?? '')) frame.library = true;
      continue;
    }
    settle();
    if (!NOISE.test(line)) kept.push(line);
  }
  settle();
  return kept;
}
