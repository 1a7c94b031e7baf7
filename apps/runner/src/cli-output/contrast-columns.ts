import { type ContrastInterval, formatContrastBounds, formatSigned } from "@tfgrpo/protocol";
import type { Column } from "./render-table.js";

/**
 * The table columns of an entry's credit, its controlled contrast (mean reward shown minus withheld): the estimate with
 * its interval in one cell, "+0.240 [+0.050, +0.430]" (every number signed and 3 decimals, so the cells line up), and the
 * groups it rests on. Without a contrast the cell says "-" and the groups 0.
 */
export function contrastColumns<Row>(interval: (row: Row) => ContrastInterval): Column<Row>[] {
  return [
    {
      header: "credit: contrast [interval]",
      value: (row) => {
        const contrast = interval(row);
        return contrast.n === 0
          ? null
          : `${formatSigned(contrast.estimate)} ${formatContrastBounds(contrast)}`;
      },
      align: "right",
    },
    { header: "groups", value: (row) => interval(row).n, align: "right" },
  ];
}

/** A contrast in JSON output: its numbers, or null without evidence (its standard error would be Infinity). */
export function contrastJson(
  contrast: ContrastInterval,
): { n: number; estimate: number; lower: number; upper: number; standardError: number } | null {
  if (contrast.n === 0) return null;
  const { n, estimate, lower, upper, standardError } = contrast;
  return { n, estimate, lower, upper, standardError };
}
