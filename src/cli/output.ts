/** The CLI's only way to talk: results on stdout (so they can be piped), nothing else there. */
export function print(line: string): void {
  process.stdout.write(line + '\n');
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}
