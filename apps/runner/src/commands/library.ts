import { writeFile } from "node:fs/promises";
import path from "node:path";
import {
  domainSchema,
  type Experience,
  entryContrast,
  experienceIdSchema,
  type LibraryVersion,
  readUserText,
  TfgrpoError,
} from "@tfgrpo/protocol";
import {
  createStore,
  type ExperienceChange,
  type LibraryStore,
  parseLibraryFile,
  type Store,
} from "@tfgrpo/store";
import type { z } from "zod";
import { domainArgument } from "../cli-options/domain-argument.js";
import { requireExistingDatabase } from "../cli-options/require-existing-database.js";
import { contrastColumns, contrastJson } from "../cli-output/contrast-columns.js";
import { formatSuccessRate } from "../cli-output/format-success-rate.js";
import { type Column, renderTable } from "../cli-output/render-table.js";
import { domainLessonCosts } from "../learn/stored-lesson-costs.js";
import type {
  libraryDomainCommandOptionsSchema,
  libraryExportCommandOptionsSchema,
  libraryImportCommandOptionsSchema,
  libraryListCommandOptionsSchema,
  libraryShowCommandOptionsSchema,
} from "./library-command-options.js";
import { describeLibraryEntry, libraryEntryJson, readLibraryEntryView } from "./library-entry.js";

export interface DatabaseOptions {
  db?: string;
}

/** `--db` wins, then $TFGRPO_DB, then `.tfgrpo/tfgrpo.db` in the current directory. */
export function resolveDatabase(options: DatabaseOptions, env: NodeJS.ProcessEnv = process.env): string {
  return options.db || env.TFGRPO_DB || path.join(".tfgrpo", "tfgrpo.db");
}

/** "existing": the database must already exist (every command but import). */
async function openStore(options: DatabaseOptions, mode: "existing" | "create"): Promise<Store> {
  const location = resolveDatabase(options);
  if (mode === "existing") requireExistingDatabase(location);
  return createStore(location, { mustExist: mode === "existing" });
}

async function withStore<T>(
  options: DatabaseOptions,
  mode: "existing" | "create",
  fn: (store: Store) => Promise<T>,
) {
  const store = await openStore(options, mode);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** `3`, `v3`, `head`, or (where allowed) `none` for the empty library. */
async function resolveVersion(
  store: LibraryStore,
  domain: string,
  value: string,
  allowNone = false,
): Promise<number | null> {
  if (allowNone && (value === "none" || value === "empty")) return null;
  if (value === "head") {
    const head = await store.getHeadVersion(domain);
    if (head === null) throw new TfgrpoError("not_found", `library ${domain} has no committed version`);
    return head;
  }
  const match = /^v?(\d+)$/.exec(value);
  if (!match) {
    throw new TfgrpoError(
      "invalid_input",
      `version "${value}": expected a number like 3 or v3, or head${allowNone ? ", or none" : ""}`,
    );
  }
  return Number(match[1]);
}

const write = (text: string) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s*\r?\n\s*/g, " ⏎ ");
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(1, width - 1))}…`;
}

/** `--entry G3`, checked before the store is opened. */
function entryArgument(value: string): string {
  const parsed = experienceIdSchema.safeParse(value);
  if (!parsed.success)
    throw new TfgrpoError(
      "invalid_input",
      `--entry ${value}: ${parsed.error.issues[0]?.message ?? "not an id"}`,
    );
  return parsed.data;
}

function describeOps(version: LibraryVersion): string {
  if (version.ops.length === 0) return "-";
  const counts = new Map<string, number>();
  for (const op of version.ops) counts.set(op.op, (counts.get(op.op) ?? 0) + 1);
  return [...counts].map(([op, n]) => `${n} ${op}`).join(", ");
}

/** `tfgrpo library list`. */
export const libraryList = async (options: z.infer<typeof libraryListCommandOptionsSchema>) =>
  withStore(options, "existing", async (store) => {
    if (options.domain === undefined) {
      const domains = await store.listDomains();
      if (domains.length === 0) {
        write("no libraries yet");
        return;
      }
      write(
        renderTable(
          [
            { header: "domain", value: (d) => d.domain },
            { header: "head", value: (d) => (d.head === null ? null : `v${d.head}`) },
            { header: "versions", value: (d) => d.versions },
            { header: "active", value: (d) => d.headCounts.active },
            { header: "candidate", value: (d) => d.headCounts.candidate },
            { header: "probation", value: (d) => d.headCounts.probation },
            { header: "archived", value: (d) => d.headCounts.archived },
            { header: "next id", value: (d) => `G${d.nextId}` },
          ],
          domains,
        ),
      );
      return;
    }
    const domain = domainArgument(options.domain);
    const versions = await store.listVersions(domain);
    if (versions.length === 0) throw new TfgrpoError("not_found", `no library ${domain}`);
    const head = await store.getHeadVersion(domain);
    write(
      renderTable(
        [
          { header: "version", value: (v) => `v${v.version}${v.version === head ? " (head)" : ""}` },
          { header: "parent", value: (v) => (v.parent === null ? "none" : `v${v.parent}`) },
          { header: "state", value: (v) => v.state },
          { header: "operations", value: describeOps },
          {
            header: "gate",
            value: (v) => (v.gate ? `${v.gate.decision}: ${oneLine(v.gate.reason, 40)}` : null),
          },
          { header: "created", value: (v) => v.createdAt },
          { header: "message", value: (v) => (v.message ? oneLine(v.message, 50) : null) },
        ],
        versions,
      ),
    );
  });

/** `tfgrpo library show`. */
export const libraryShow = async (options: z.infer<typeof libraryShowCommandOptionsSchema>) => {
  const entryId = options.entry === undefined ? undefined : entryArgument(options.entry);
  await withStore(options, "existing", async (store) => {
    const domain = domainArgument(options.domain);
    const version = await resolveVersion(store, domain, options.version ?? "head");
    const snapshot = version === null ? null : await store.getVersion(domain, version);
    const info = version === null ? null : await store.getVersionInfo(domain, version);
    if (!snapshot || !info) throw new TfgrpoError("not_found", `library ${domain} has no version ${version}`);
    const head = await store.getHeadVersion(domain);
    if (entryId !== undefined) {
      const entry = snapshot.experiences.find((e) => e.id === entryId);
      if (!entry)
        throw new TfgrpoError("not_found", `library ${domain} v${snapshot.version} has no entry ${entryId}`);
      const view = await readLibraryEntryView(store, domain, entry);
      write(
        options.json
          ? JSON.stringify({ version: snapshot.version, ...libraryEntryJson(view) }, null, 2)
          : `${domain} v${snapshot.version}: ${describeLibraryEntry(view)}`,
      );
      return;
    }
    const entries = snapshot.experiences.filter((e) => options.all || e.status !== "archived");
    const archived =
      snapshot.experiences.length - snapshot.experiences.filter((e) => e.status !== "archived").length;
    const costs = options.costs ? await domainLessonCosts(store, domain) : null;
    if (options.json) {
      write(
        JSON.stringify(
          {
            domain,
            version: snapshot.version,
            state: info.state,
            head: snapshot.version === head,
            entries: entries.map((e) => ({
              id: e.id,
              status: e.status,
              text: e.text,
              ...(e.conflictGroup ? { conflictGroup: e.conflictGroup } : {}),
              shown: e.stats.shown,
              success: e.stats.success,
              contrast: contrastJson(entryContrast(e.stats)),
              ...(costs ? { costUsd: costs.byEntry.get(e.id)?.costUsd ?? null } : {}),
            })),
          },
          null,
          2,
        ),
      );
      return;
    }
    write(
      `${domain} v${snapshot.version} (${info.state}${snapshot.version === head ? ", head" : ""}): ` +
        `${snapshot.experiences.length - archived} visible entries, ${archived} archived` +
        (options.all || archived === 0 ? "" : " (--all shows them)"),
    );
    if (entries.length === 0) return;
    const numbers: Column<Experience>[] = [
      { header: "id", value: (e) => e.id },
      { header: "status", value: (e) => e.status },
      { header: "shown", value: (e) => e.stats.shown },
      { header: "success", value: (e) => formatSuccessRate(e.stats), align: "right" },
      ...(costs
        ? [
            {
              header: "cost $",
              value: (e: Experience) => {
                const cost = costs.byEntry.get(e.id);
                return cost === undefined ? "-" : cost.costUsd.toFixed(5);
              },
              align: "right" as const,
            },
          ]
        : []),
      // Its credit, what it earns (after what it cost): mean reward shown minus withheld, over the groups that
      // had both arms.
      ...contrastColumns((e: Experience) => entryContrast(e.stats)),
    ];
    // The text gets what the terminal has left once the other columns are laid out.
    const used = Math.max(
      ...renderTable(numbers, entries)
        .split("\n")
        .map((line) => line.length),
    );
    const textWidth = options.wide
      ? Number.POSITIVE_INFINITY
      : Math.max(30, (process.stdout.columns || 120) - used - 2);
    write(renderTable([...numbers, { header: "text", value: (e) => oneLine(e.text, textWidth) }], entries));
    if (costs)
      write(
        `learning cost: $${[...costs.byEntry.values()].reduce((sum, c) => sum + c.costUsd, 0).toFixed(5)} on entries written over ${costs.steps} step(s), $${costs.droppedUsd.toFixed(5)} on proposals that were dropped (rejected candidates, nothing to change)`,
      );
  });
};

/** `tfgrpo library diff <from> <to>`. */
export const libraryDiff = async (
  fromArg: string,
  toArg: string,
  options: z.infer<typeof libraryDomainCommandOptionsSchema>,
) =>
  withStore(options, "existing", async (store) => {
    const domain = domainArgument(options.domain);
    const from = await resolveVersion(store, domain, fromArg, true);
    const to = await resolveVersion(store, domain, toArg, true);
    const diff = await store.diff(domain, from, to);
    const name = (v: number | null) => (v === null ? "the empty library" : `v${v}`);
    const lines = [
      `${domain}: ${name(from)} -> ${name(to)}: ${diff.added.length} added, ${diff.removed.length} removed, ` +
        `${diff.changed.length} changed`,
    ];
    const describe = (change: ExperienceChange): string[] => {
      const out: string[] = [];
      for (const field of change.fields) {
        const before = change.before?.[field];
        const after = change.after?.[field];
        const show = (v: unknown) =>
          v === undefined ? "(none)" : typeof v === "string" ? v : JSON.stringify(v);
        out.push(`    ${field}: ${show(before)}`, `    ${" ".repeat(field.length)}  -> ${show(after)}`);
      }
      return out;
    };
    for (const c of diff.added) lines.push(`+ ${c.id} [${c.after!.status}] ${c.after!.text}`);
    for (const c of diff.removed) {
      const how = c.after ? `archived, was ${c.before!.status}` : `absent, was ${c.before!.status}`;
      lines.push(`- ${c.id} [${how}] ${c.before!.text}`);
    }
    for (const c of diff.changed) lines.push(`~ ${c.id}`, ...describe(c));
    write(lines.join("\n"));
  });

/** `tfgrpo library rollback <version>`. */
export const libraryRollback = async (
  versionArg: string,
  options: z.infer<typeof libraryDomainCommandOptionsSchema>,
) =>
  withStore(options, "existing", async (store) => {
    const domain = domainArgument(options.domain);
    const target = (await resolveVersion(store, domain, versionArg))!;
    const version = await store.rollback(domain, target);
    write(
      `rolled ${domain} back to v${target}: committed as v${version.version} (parent v${version.parent}), now the head`,
    );
  });

/** `tfgrpo library export`. */
export const libraryExport = async (options: z.infer<typeof libraryExportCommandOptionsSchema>) =>
  withStore(options, "existing", async (store) => {
    const domain = domainArgument(options.domain);
    const version = await resolveVersion(store, domain, options.version ?? "head");
    const text = await store.exportLibrary(domain, {
      format: options.format,
      version: version ?? undefined,
    });
    if (options.out) {
      // Exactly the exported bytes: a plain export of an imported reference library matches its source file.
      await writeFile(options.out, text);
      process.stderr.write(`wrote ${domain} v${version} as ${options.format} to ${options.out}\n`);
    } else write(text);
  });

/** `tfgrpo library import <file>`. */
export const libraryImport = async (
  file: string,
  options: z.infer<typeof libraryImportCommandOptionsSchema>,
) => {
  const text = await readUserText(file, { what: "library file", code: "not_found" });
  // Validate the whole file before touching (or creating) the database.
  const parsed = parseLibraryFile(text, { file, format: options.format });
  const fromName = path.basename(file).replace(/\.[^.]*$/, "");
  const guessed = parsed.domain ?? (domainSchema.safeParse(fromName).success ? fromName : undefined);
  if (options.domain === undefined && guessed === undefined) {
    throw new TfgrpoError("invalid_input", `cannot tell which library ${file} is for: pass --domain`, {
      details: { file },
    });
  }
  const domain = domainArgument(options.domain ?? guessed!);
  await withStore(options, "create", async (store) => {
    const result = await store.importLibrary(domain, {
      text,
      file,
      format: parsed.format,
      defaultStatus: options.status,
      ...(options.replace ? { replace: true } : {}),
    });
    write(
      `${options.replace ? "restored" : "imported"} ${result.entries} entries (${result.format}) from ${file} ` +
        `into ${domain} as v${result.version.version}, now the head; ${result.preservedIds ? "ids kept" : "new ids given"}`,
    );
    if (!result.preservedIds) {
      write(
        Object.entries(result.ids)
          .map(([from, to]) => `  ${from} -> ${to}`)
          .join("\n"),
      );
    }
  });
};
