// A plain-text table for the scripts' reports: columns as wide as their widest cell, numbers
// (columns whose every cell is a number or a percentage) right-aligned, the rest left-aligned.

/** @param {string[]} header @param {string[][]} rows @returns {string[]} the lines */
export function formatTable(header, rows) {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const numeric = header.map((_, column) => rows.length > 0 && rows.every((row) => /^[\d.,]+( s|%)?$/.test(row[column])));
  const format = (row) => row.map((cell, column) => (numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ').trimEnd();
  return [header, ...rows].map(format);
}
