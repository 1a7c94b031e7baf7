export interface Column<Row> {
  header: string;
  value: (row: Row) => string | number | null | undefined;
  align?: "left" | "right";
}

/** A plain-text table with aligned columns: numbers right-aligned, text left-aligned, missing values as "-". */
export function renderTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const cells = rows.map((row) => columns.map((column) => formatCell(column.value(row))));
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((r) => r[i]!.length)),
  );
  const alignOf = (i: number) =>
    columns[i]!.align ??
    (rows.length > 0 && typeof columns[i]!.value(rows[0]!) === "number" ? "right" : "left");
  const line = (values: string[]) =>
    values
      .map((v, i) => (alignOf(i) === "right" ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const separator = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(columns.map((c) => c.header)), separator, ...cells.map(line)].join("\n");
}

function formatCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return String(value);
    return Number.isInteger(value) ? String(value) : value.toFixed(3);
  }
  return value;
}
