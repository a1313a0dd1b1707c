/** Rows as a plain-text table for the CLI: one column per field (nested values as JSON). */
const cell = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

export function table(rows: unknown[]): string {
  if (rows.length === 0) return 'No rows.';
  const objects = rows.map((r) => (r && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : { value: r }));
  const columns = [...new Set(objects.flatMap((o) => Object.keys(o)))];
  const lines = [columns, ...objects.map((o) => columns.map((c) => cell(o[c])))];
  const widths = columns.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  return lines
    .map((l) =>
      l
        .map((v, i) => v.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
