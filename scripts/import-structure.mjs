// npm run structure: the shape of src/ from its imports (issue 40's measures, before and after a move).
// - circles: groups of files that import each other round (type imports and re-exports count: a
//   reader must follow them too), by Tarjan's strongly connected components;
// - levels: the folders and top-level files of src/ (units) put in the order that leaves the fewest
//   file-level imports running back up (layerUnits); those are counted and listed, unit → unit with
//   an example, and the levels are the longest chain of units without them;
// - unit circles: groups of units that import each other round (the back-up imports are what closes them);
// - the largest files. `--order` prints the units top down with their level.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', 'src');
const files = readdirSync(root, { recursive: true })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .map((file) => join(root, file));
const known = new Set(files);
const IMPORT = /^\s*(?:import|export)\b[^'";]*?from\s+'(\.{1,2}\/[^']+)'|^\s*import\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/gm;
const edges = new Map(files.map((file) => [file, new Set()]));
for (const file of files) {
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (known.has(target) && target !== file) edges.get(file).add(target);
  }
}

function components(nodes, next) {
  let index = 0;
  const order = new Map(), low = new Map(), stack = [], on = new Set(), found = [];
  const visit = (node) => {
    order.set(node, index); low.set(node, index); index++; stack.push(node); on.add(node);
    for (const to of next(node)) {
      if (!order.has(to)) { visit(to); low.set(node, Math.min(low.get(node), low.get(to))); }
      else if (on.has(to)) low.set(node, Math.min(low.get(node), order.get(to)));
    }
    if (low.get(node) === order.get(node)) {
      const group = [];
      for (let top; top !== node; ) { top = stack.pop(); on.delete(top); group.push(top); }
      found.push(group);
    }
  };
  for (const node of nodes) if (!order.has(node)) visit(node);
  return found;
}

const shown = (file) => relative(root, file);
const circles = components(files, (file) => edges.get(file)).filter((group) => group.length > 1);
const unitOf = (file) => shown(file).split('/')[0];
const units = [...new Set(files.map(unitOf))];
const unitEdges = new Map(units.map((unit) => [unit, new Set()]));
for (const [from, tos] of edges) for (const to of tos) if (unitOf(from) !== unitOf(to)) unitEdges.get(unitOf(from)).add(unitOf(to));
const unitGroups = components(units, (unit) => unitEdges.get(unit));

// How many file-level imports run from one unit to another, with one of them as the example.
const weight = new Map();
for (const [from, tos] of edges) for (const to of tos) {
  const a = unitOf(from), b = unitOf(to);
  if (a === b) continue;
  const key = `${a}\t${b}`;
  const known = weight.get(key);
  if (known) known.count++;
  else weight.set(key, { from: a, to: b, count: 1, example: `${shown(from)} → ${shown(to)}` });
}
const w = (a, b) => weight.get(`${a}\t${b}`)?.count ?? 0;
const order = layerUnits(units);
const rank = new Map(order.map((unit, i) => [unit, i]));
const backUp = [...weight.values()].filter(({ from, to }) => rank.get(to) < rank.get(from)).sort((x, y) => y.count - x.count || x.from.localeCompare(y.from));
const level = new Map();
for (const unit of [...order].reverse()) {
  let deepest = 0;
  for (const to of unitEdges.get(unit)) if (rank.get(to) > rank.get(unit)) deepest = Math.max(deepest, level.get(to) + 1);
  level.set(unit, deepest);
}
const chain = [order.reduce((top, unit) => (level.get(unit) > level.get(top) ? unit : top))];
for (let unit = chain[0]; level.get(unit) > 0; chain.push(unit)) {
  const below = [...unitEdges.get(unit)].filter((to) => rank.get(to) > rank.get(unit));
  unit = below.reduce((next, to) => (level.get(to) > level.get(next) ? to : next));
}

/**
 * The units from the top (importers) down, ordered so that the fewest file-level imports run back
 * up: Eades, Lin and Smyth's greedy order for a small feedback arc set (sinks go to the bottom,
 * sources to the top, else the unit whose imports outweigh its importers most goes next from the
 * top), then each unit moved to the place that lowers the count most, until none does.
 */
function layerUnits(all) {
  const left = new Set(all), top = [], bottom = [];
  const sum = (unit, other) => [...left].reduce((n, peer) => n + other(unit, peer), 0);
  const byName = (x, y) => x.localeCompare(y);
  while (left.size > 0) {
    let moved = true;
    while (moved) {
      moved = false;
      for (const unit of [...left].sort(byName)) {
        if (sum(unit, w) === 0) { bottom.unshift(unit); left.delete(unit); moved = true; }
        else if (sum(unit, (u, peer) => w(peer, u)) === 0) { top.push(unit); left.delete(unit); moved = true; }
      }
    }
    if (left.size === 0) break;
    const delta = (unit) => sum(unit, w) - sum(unit, (u, peer) => w(peer, u));
    const next = [...left].sort((x, y) => delta(y) - delta(x) || byName(x, y))[0];
    top.push(next);
    left.delete(next);
  }
  const placed = [...top, ...bottom];
  const cost = (list) => list.reduce((n, from, i) => n + list.slice(0, i).reduce((m, to) => m + w(from, to), 0), 0);
  let best = cost(placed);
  for (let improved = true; improved; ) {
    improved = false;
    for (const unit of [...placed]) {
      const without = placed.filter((u) => u !== unit);
      for (let at = 0; at <= without.length; at++) {
        const tried = [...without.slice(0, at), unit, ...without.slice(at)];
        const c = cost(tried);
        if (c < best) { best = c; placed.splice(0, placed.length, ...tried); improved = true; }
      }
    }
  }
  return placed;
}
const lines = files.map((file) => [shown(file), readFileSync(file, 'utf8').split('\n').length - 1]).sort((a, b) => b[1] - a[1]);
const total = lines.reduce((sum, [, n]) => sum + n, 0);

const backUpCount = backUp.reduce((n, { count }) => n + count, 0);
console.log(`src/: ${files.length} files, ${total} lines; ${units.length} folders and top-level files`);
console.log(`levels: ${chain.length} (the longest chain of units each importing the next, the imports that run back up left out)`);
console.log(`  ${chain.join(' → ')}`);
console.log(`imports that run back up: ${backUpCount} (${backUp.length} unit pairs)`);
for (const { from, to, count, example } of backUp) console.log(`  ${from} → ${to}: ${count}, e.g. ${example}`);
const unitCircles = unitGroups.filter((group) => group.length > 1);
console.log(`unit circles: ${unitCircles.length}`);
for (const group of unitCircles) console.log(`  ${group.length} units: ${group.sort().join(', ')}`);
console.log(`file circles: ${circles.length}`);
for (const group of circles) console.log(`  ${group.length} files: ${group.map(shown).sort().join(', ')}`);
console.log(`files over 300 lines: ${lines.filter(([, n]) => n > 300).length}`);
for (const [file, n] of lines.slice(0, 12)) console.log(`  ${String(n).padStart(5)}  ${file}`);
if (process.argv.includes('--order')) for (const unit of order) console.log(`  level ${String(level.get(unit) + 1).padStart(2)}  ${unit}`);
