// Markdown for bench/results/latest.md.

/** A table row: `| a | b | c |`, each cell as a template literal would print it. */
export function tableRow(cells: ReadonlyArray<string | number>): string {
  return `| ${cells.map((cell) => String(cell)).join(' | ')} |`;
}
