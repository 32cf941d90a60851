// npm run bench:filters: how well each tool's filter does on the captured real outputs in
// tests/fixtures/outputs/<tool>/ (volume fixtures included), per tool:
//   must-keep kept — of the raw lines that carry a diagnosis (failing test names, assertion and
//                    error messages, expected/received and -/+ diff lines, file:line locations,
//                    error codes, totals), the share whose facts are still in what the agent reads:
//                    at least 80% of the line's words (3+ characters; long numbers such as thread
//                    ids and addresses left out) appear in it — filters may reformat a line (tsc
//                    --pretty to file(line,col), a lint name moved into the header), not lose it;
//   noise kept     — of the raw lines that are noise (passing tests, progress, banners, timings,
//                    stack frames in libraries or runtimes, blank lines), the share still there;
//   size           — characters the agent reads (after the 6000-character budget) / raw characters.
// Lines are classified by the patterns below, the same for every tool; a line can be neither.
// Volume fixtures can't keep every must-keep line within the budget: they are reported apart.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filterOutput } from '../dist/filters/filter-output.js';

const root = new URL('../tests/fixtures/outputs/', import.meta.url).pathname;
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]/g;
const NOISE = [
  /^\s*$/,
  /node_modules[\\/]|node:internal|site-packages|\/usr\/lib\/(?:go|python)|\/rustc\/|library\/(?:std|core)\/|runtime\/(?:panic|proc)\.go|testing\.tRunner/,
  /^\s*(?:✓|√|✔|PASS\b|ok\b|PASSED\b|--- PASS|=== RUN|=== PAUSE|=== CONT)|\.\.\. ok$|\bpassed\b.*\d+(?:\.\d+)?m?s\b/,
  /^\s*(?:RUN\s+v\d|Compiling |Finished |Running |Start at|Duration|Time:|Ran all test suites|platform |rootdir:|cachedir:|plugins:|collected \d|Checked \d+ files? in)/,
  // rustc's boilerplate about how a lint was enabled, and where to read more.
  /= (?:note|help): .*(?:implied by|to override|on by default)|rustc --explain|For more information about this error/,
];
const MUST_KEEP = [
  /\b(?:FAIL|FAILED|ERROR|Error|error|panic|panicked|AssertionError|assert|Exception|Traceback \(most)\b/,
  /\b(?:expected|received|Expected|Received|actual|left|right)\b/,
  /^\s*[-+] \S/,
  /[\w./-]+\.\w+:\d+(?::\d+)?|\(\d+,\d+\)/,
  /\b(?:TS\d{4}|E\d{4}|[A-Z]{1,3}\d{3,4}|clippy::\w+)\b/,
  /\b\d+ (?:failed|errors?|problems?|passed)\b/,
];

const isNoise = (line) => NOISE.some((pattern) => pattern.test(line));
const isMustKeep = (line) => !isNoise(line) && MUST_KEEP.some((pattern) => pattern.test(line));
const normalise = (line) => line.replace(ANSI, '').replace(/\s+/g, ' ').trim();

function measure(tool, file) {
  const raw = readFileSync(join(root, tool, file), 'utf8');
  const filtered = filterOutput(tool, raw);
  const shown = [...filtered.items.flat(), ...filtered.summary];
  const budgeted = fit(filtered);
  const kept = new Set(shown.map(normalise));
  const text = shown.join('\n');
  const lines = raw.split('\n').map((line) => line.replace(ANSI, '').replace(/\r/g, ''));
  const must = lines.filter(isMustKeep).map(normalise).filter(Boolean);
  const noise = lines.filter((line) => isNoise(line) && line.trim() !== '').map(normalise);
  const found = (line) => {
    // file:// prefixes, durations, thread ids and addresses are noise inside a line.
    const words = line
      .replace(/file:\/\//g, '')
      .split(/[^\w./-]+/)
      .filter((word) => word.length >= 3 && !/^(?:\d{5,}|0x[0-9a-f]+|\d+(?:\.\d+)?m?s)$/i.test(word));
    return words.length === 0 || words.filter((word) => text.includes(word)).length / words.length >= 0.8;
  };
  return {
    must: must.length,
    mustKept: must.filter(found).length,
    noise: noise.length,
    noiseKept: noise.filter((line) => kept.has(line)).length,
    rawChars: raw.length,
    shownChars: budgeted,
  };
}

// What the agent reads of it: the same budget a one-gate report gets.
function fit(filtered) {
  const lines = [...filtered.items.flat(), ...filtered.summary];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > 6000) return 6000;
    size += line.length + 1;
  }
  return size;
}

const pct = (part, whole) => (whole === 0 ? '   -  ' : `${((100 * part) / whole).toFixed(1).padStart(5)}%`);
console.log('tool          fixtures  must-keep kept  noise kept  size (read/raw)   volume fixtures: size');
for (const tool of readdirSync(root).sort()) {
  const files = readdirSync(join(root, tool)).filter((file) => file.endsWith('.txt'));
  const normal = files.filter((file) => !file.startsWith('volume'));
  const volume = files.filter((file) => file.startsWith('volume'));
  const total = normal.map((file) => measure(tool, file)).reduce((sum, m) => ({
    must: sum.must + m.must, mustKept: sum.mustKept + m.mustKept, noise: sum.noise + m.noise, noiseKept: sum.noiseKept + m.noiseKept, rawChars: sum.rawChars + m.rawChars, shownChars: sum.shownChars + m.shownChars,
  }), { must: 0, mustKept: 0, noise: 0, noiseKept: 0, rawChars: 0, shownChars: 0 });
  const vol = volume.map((file) => measure(tool, file));
  const volText = vol.map((m) => `${m.shownChars}/${m.rawChars} (${pct(m.shownChars, m.rawChars).trim()})`).join(', ');
  console.log(
    `${tool.padEnd(13)} ${String(normal.length).padStart(8)}  ${pct(total.mustKept, total.must)} of ${String(total.must).padStart(4)}  ${pct(total.noiseKept, total.noise)} of ${String(total.noise).padStart(4)}  ${pct(total.shownChars, total.rawChars)}           ${volText}`,
  );
}
