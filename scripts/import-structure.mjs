// npm run structure: the shape of src/ from its imports (issue 40's measures, before and after a move).
// - circles: groups of files that import each other round (type imports and re-exports count: a
//   reader must follow them too), by Tarjan's strongly connected components;
// - levels: the folders and top-level files of src/ layered so that each imports only what stands
//   below it; imports that run back up (inside a circle of units) are counted and listed;
// - the largest files.
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
const groupOf = new Map(unitGroups.flatMap((group, i) => group.map((unit) => [unit, i])));
const level = new Map();
const levelOf = (i) => {
  if (level.has(i)) return level.get(i);
  level.set(i, 0);
  let deepest = 0;
  for (const unit of unitGroups[i]) for (const to of unitEdges.get(unit)) if (groupOf.get(to) !== i) deepest = Math.max(deepest, levelOf(groupOf.get(to)) + 1);
  level.set(i, deepest);
  return deepest;
};
for (let i = 0; i < unitGroups.length; i++) levelOf(i);
const backUp = [];
for (const [from, tos] of edges) for (const to of tos) {
  const a = unitOf(from), b = unitOf(to);
  if (a !== b && groupOf.get(a) === groupOf.get(b)) backUp.push(`${shown(from)} → ${shown(to)}`);
}
const lines = files.map((file) => [shown(file), readFileSync(file, 'utf8').split('\n').length - 1]).sort((a, b) => b[1] - a[1]);
const total = lines.reduce((sum, [, n]) => sum + n, 0);

console.log(`src/: ${files.length} files, ${total} lines; ${units.length} folders and top-level files`);
console.log(`levels: ${Math.max(...level.values()) + 1}; imports between units that import each other round: ${backUp.length}`);
for (const group of unitGroups.filter((group) => group.length > 1)) console.log(`  units in a circle: ${group.sort().join(', ')}`);
console.log(`file circles: ${circles.length}`);
for (const group of circles) console.log(`  ${group.length} files: ${group.map(shown).sort().join(', ')}`);
console.log(`files over 300 lines: ${lines.filter(([, n]) => n > 300).length}`);
for (const [file, n] of lines.slice(0, 12)) console.log(`  ${String(n).padStart(5)}  ${file}`);
if (process.argv.includes('--back-up')) for (const line of backUp) console.log(`  back up: ${line}`);
