import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { ImportSource, MergeLibrariesResult } from "@tfgrpo/curator";
import { domainSchema, readUserText, TfgrpoError } from "@tfgrpo/protocol";
import { localDatabaseFile, parseLibraryFile } from "@tfgrpo/store";
import { createCuratorRuntime } from "../roles/curator.js";
import { startSimWorld } from "../runtime/start-sim-world.js";
import { resolveDatabase } from "./library.js";
import type { LibraryMergeOptions } from "./library-merge-command-options.js";

export type { LibraryMergeOptions };

export interface LibraryMergeOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

function parseDomain(value: string, flag: string): string {
  const parsed = domainSchema.safeParse(value);
  if (!parsed.success) {
    throw new TfgrpoError("invalid_input", `${flag} ${value}: ${parsed.error.issues[0]!.message}`, {
      details: { [flag.replace(/^--/, "")]: value },
    });
  }
  return parsed.data;
}

/** `--from web` names a library; `--from file.json` (or any existing path) a library file, validated whole first. */
async function importSource(from: string): Promise<string | ImportSource> {
  const looksLikeFile = /[/\\]|\.(json|md|markdown|txt)$/i.test(from) || existsSync(from);
  if (!looksLikeFile) return parseDomain(from, "--from");
  const text = await readUserText(from, { what: "library file", code: "not_found", option: "--from" });
  const parsed = parseLibraryFile(text, { file: from, format: "auto" });
  return {
    label: path.basename(from),
    // As from a domain: proven and untried entries travel, those on probation or archived stay home.
    entries: parsed.entries
      .filter((entry) => ["active", "candidate"].includes(entry.fields.status ?? "active"))
      .map((entry) => ({ id: entry.id, text: entry.text })),
  };
}

/**
 * `tfgrpo library merge --from web --into math`: another library's entries enter this one through the curator's
 * consolidation (duplicates folded, word limit, model review) and conflict check, as candidates that must earn their
 * place. The merged version is committed unless --no-commit leaves it proposed for a validation gate.
 */
export async function libraryMerge(
  options: LibraryMergeOptions,
  output: LibraryMergeOutput = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  },
): Promise<MergeLibrariesResult> {
  const into = parseDomain(options.into, "--into");
  const from = await importSource(options.from);
  if (from === into) throw new TfgrpoError("invalid_input", `--from and --into are both ${into}`);
  if (!options.config && !options.sim)
    throw new TfgrpoError("invalid_config", "library merge needs --config models.yaml (or --sim)");
  const db = resolveDatabase(options);
  const file = localDatabaseFile(db);
  if (file !== null) await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const log = (line: string) => output.stderr(`${line}\n`);
  const sim = options.sim ? await startSimWorld({ seed: 1 }) : null;
  try {
    if (sim) log(`SIMULATED world: sim model server at ${sim.server.url} (not a real model)`);
    const runtime = await createCuratorRuntime({ db, modelsConfig: options.config ?? sim!.config, log });
    try {
      const result = await runtime.curator.mergeLibraries({
        from,
        into,
        commit: options.commit !== false,
        ...(options.runId ? { runId: options.runId } : {}),
      });
      const label = typeof from === "string" ? from : from.label;
      for (const note of result.notes) log(`curator: ${note}`);
      const counts = new Map<string, number>();
      for (const op of result.operations) counts.set(op.op, (counts.get(op.op) ?? 0) + 1);
      const summary = [...counts].map(([op, n]) => `${n} ${op}`).join(", ") || "no operations";
      output.stdout(
        result.version === null
          ? `merged ${result.imported} entries of ${label} into ${into}: nothing new (every entry already there)\n`
          : `merged ${result.imported} entries of ${label} into ${into} as v${result.version} (${summary}); ` +
              `${result.committed ? "committed, now the head" : "proposed, not committed (--no-commit)"}; ` +
              `${result.createdIds.length} new candidate(s)\n`,
      );
      return result;
    } finally {
      await runtime.close();
    }
  } finally {
    await sim?.close();
  }
}
