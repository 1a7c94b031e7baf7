import { contrastEstimate, type Experience, entryContrast, formatContrast } from "@tfgrpo/protocol";
import type { LibraryStore, VersionContrast } from "@tfgrpo/store";
import { contrastColumns, contrastJson } from "../cli-output/contrast-columns.js";
import { formatSuccessRate } from "../cli-output/format-success-rate.js";
import { renderTable } from "../cli-output/render-table.js";

/** One entry of a library version, with what `library show --entry` prints about it. */
export interface LibraryEntryView {
  entry: Experience;
  /** The entry's contrast split by the library version its rollouts read, oldest first. */
  versions: VersionContrast[];
}

export async function readLibraryEntryView(
  store: LibraryStore,
  domain: string,
  entry: Experience,
): Promise<LibraryEntryView> {
  return { entry, versions: await store.listVersionContrasts(domain, entry.id) };
}

/**
 * The entry as text: its lesson, its counters and contrast with the interval, the contrast per library version (does
 * the evidence hold as the library around it changed?), and every lifecycle move with the reason that carries its
 * numbers.
 */
export function describeLibraryEntry({ entry, versions }: LibraryEntryView): string {
  const { stats } = entry;
  const lines = [
    `${entry.id} (${entry.status}${entry.conflictGroup ? `, conflict group ${entry.conflictGroup}` : ""}): ${entry.text}`,
    `shown ${stats.shown}, success ${formatSuccessRate(stats)}, ` +
      `last shown in ${stats.lastUsedVersion === null ? "no version yet" : `v${stats.lastUsedVersion}`}`,
    `credit (contrast, reward shown - withheld): ${formatContrast(entryContrast(stats))}`,
  ];
  if (versions.length === 0) lines.push("no credit by library version yet");
  else {
    lines.push(
      "credit by library version:",
      renderTable(
        [
          { header: "version", value: (row: VersionContrast) => `v${row.version}` },
          ...contrastColumns((row: VersionContrast) => contrastEstimate(row.contrast)),
        ],
        versions,
      ),
    );
  }
  lines.push("history:");
  for (const event of entry.history)
    lines.push(`  v${event.version}: ${event.from ?? "new"} -> ${event.to}: ${event.reason}`);
  return lines.join("\n");
}

/** The same view as JSON, the contrasts as numbers (estimate, interval, groups). */
export function libraryEntryJson({ entry, versions }: LibraryEntryView) {
  return {
    ...entry,
    contrast: contrastJson(entryContrast(entry.stats)),
    versionContrasts: versions.map((row) => ({
      version: row.version,
      contrast: contrastJson(contrastEstimate(row.contrast)),
    })),
  };
}
