import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readUserText, TfgrpoError } from "@tfgrpo/protocol";
import { parse, stringify } from "yaml";
import { type Column, renderTable } from "../cli-output/render-table.js";
import type { StoredEvaluation } from "../learn/stored-evaluation.js";

/**
 * The models config with another actor: `name` is an entry of its `models:` map, or else a model id served by the
 * actor's own provider (the actor entry copied with that model). Written beside nothing: a temporary file.
 */
export async function withActorModel(
  config: string,
  name: string,
): Promise<{ file: string; dispose(): Promise<void> }> {
  const parsed = parse(await readUserText(config, { what: "models config", code: "invalid_config" })) as {
    models?: Record<string, Record<string, unknown>>;
    roles?: Record<string, unknown>;
  } | null;
  const actor = parsed?.roles?.actor;
  if (!parsed?.roles || actor === undefined) {
    throw new TfgrpoError("invalid_config", `${config}: --actor-model needs an actor role to replace`, {
      details: { file: config, field: "roles.actor" },
    });
  }
  if (parsed.models?.[name]) parsed.roles.actor = name;
  else {
    const entry = typeof actor === "string" ? parsed.models?.[actor] : (actor as Record<string, unknown>);
    if (!entry) {
      throw new TfgrpoError(
        "invalid_config",
        `${config}: roles.actor names "${String(actor)}", which is not in models:`,
        {
          details: { file: config, field: "roles.actor" },
        },
      );
    }
    parsed.roles.actor = { ...entry, model: name };
  }
  const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-actor-model-"));
  // The file keeps the original's name, so a sim config is still labelled SIMULATED.
  const file = path.join(directory, path.basename(config));
  await writeFile(file, stringify(parsed));
  return { file, dispose: () => rm(directory, { recursive: true, force: true }) };
}

/** Mean@k of every library under each actor model, side by side, with the change from the first model. */
export function renderTransferTable(
  runs: ReadonlyArray<{ model: string; evaluation: StoredEvaluation }>,
): string {
  const labels = runs[0]?.evaluation.rows.map((row) => row.label) ?? [];
  const meanOf = (label: string, run: (typeof runs)[number]) =>
    run.evaluation.rows.find((row) => row.label === label)?.meanAtK.estimate;
  const columns: Column<string>[] = [
    { header: "library", value: (label) => label },
    ...runs.map((run) => ({
      header: `Mean@k, actor ${run.model}`,
      value: (label: string) => meanOf(label, run),
    })),
    ...runs.slice(1).map((run) => ({
      header: `Δ ${run.model} vs ${runs[0]!.model}`,
      value: (label: string) => {
        const [first, other] = [meanOf(label, runs[0]!), meanOf(label, run)];
        return first === undefined || other === undefined ? undefined : other - first;
      },
    })),
  ];
  return renderTable(columns, labels);
}
