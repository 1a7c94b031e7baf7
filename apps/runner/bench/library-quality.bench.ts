/**
 * What a learning run leaves in its library, read the way the SIMULATED world's policy reads it (issue 25's run:
 * `learn --sim` on 100 math tasks, seed 31, 3 epochs, G = 5): live entries the policy reads as harmful, how many active
 * entries address each pitfall (paraphrase piles), the active set against the budget, and the entries and lesson
 * tokens shown per rollout at each step. A benchmark, not a test: it takes minutes.
 *
 *   pnpm --filter tfgrpo bench:library-quality [--train 100] [--epochs 3] [--seed 31] [--no-exposure]
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { defaultLibraryBudget, entryContrast, estimateTokens, formatContrast } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { allPitfalls, createSuite, readLesson, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { renderTable } from "../src/cli-output/render-table.js";
import { simLearnArgs } from "../src/testing/sim-learn-args.js";
import { runCli } from "../src/testing/spawn-cli.js";

const { values } = parseArgs({
  options: {
    train: { type: "string", default: "100" },
    val: { type: "string", default: "30" },
    epochs: { type: "string", default: "3" },
    "group-size": { type: "string", default: "5" },
    seed: { type: "string", default: "31" },
    "no-exposure": { type: "boolean", default: false },
  },
});
const domain = "math";
const seed = Number(values.seed);

await using temporary = await temporaryDirectory("tfgrpo-library-quality-");
const data = (split: "train" | "val") => path.join(temporary.path, `${split}.jsonl`);
await writeSuiteJsonl(
  data("train"),
  createSuite({ domain, seed, size: Number(values.train), split: "train" }),
);
await writeSuiteJsonl(data("val"), createSuite({ domain, seed, size: Number(values.val), split: "val" }));
const db = path.join(temporary.path, "tfgrpo.db");
const started = Date.now();
process.stderr.write(
  `learn --sim: ${values.train} math tasks, seed ${seed}, ${values.epochs} epochs, G = ${values["group-size"]}${values["no-exposure"] ? ", exposure off" : ""} (SIMULATED)\n`,
);
const learned = await runCli([
  ...simLearnArgs({
    seed,
    domain,
    train: data("train"),
    val: data("val"),
    epochs: Number(values.epochs),
    groupSize: Number(values["group-size"]),
    db,
    runId: "quality",
  }),
  ...(values["no-exposure"] ? ["--no-exposure"] : []),
]);
if (learned.code !== 0) throw new Error(`learn failed:\n${learned.stderr.slice(-3000)}`);
process.stdout.write(`${learned.stdout}\nlearned in ${((Date.now() - started) / 1000).toFixed(0)} s\n\n`);

const store = await createStore(db, { mustExist: true });
const head = (await store.getHead(domain))!;
await store.close();
const live = head.experiences.filter((entry) => entry.status !== "archived");
const readings = live.map((entry) => ({
  entry,
  helps: allPitfalls.filter((pitfall) => readLesson(pitfall.reading, entry.text).effect === "helps"),
  hurts: allPitfalls.filter((pitfall) => readLesson(pitfall.reading, entry.text).effect === "hurts"),
}));
process.stdout.write(
  `${renderTable(
    [
      { header: "id", value: (r) => r.entry.id },
      { header: "status", value: (r) => r.entry.status },
      {
        header: "contrast [interval] over groups",
        value: (r) => formatContrast(entryContrast(r.entry.stats)),
      },
      {
        header: "the policy reads it",
        value: (r) =>
          [...r.hurts.map((p) => `HURTS ${p.id}`), ...r.helps.map((p) => `helps ${p.id}`)].join(", ") ||
          "no effect",
      },
      { header: "lesson", value: (r) => r.entry.text.slice(0, 70) },
    ],
    readings,
  )}\n\n`,
);
const active = readings.filter((r) => r.entry.status === "active");
const perPitfall = new Map<string, number>();
for (const r of active)
  for (const pitfall of new Set([...r.helps, ...r.hurts].map((p) => p.id)))
    perPitfall.set(pitfall, (perPitfall.get(pitfall) ?? 0) + 1);
const activeTokens = active.reduce((sum, r) => sum + estimateTokens(`[${r.entry.id}]. ${r.entry.text}\n`), 0);
const harmfulLive = readings.filter((r) => r.hurts.length > 0);
const harmfulActive = active.filter((r) => r.hurts.length > 0);
process.stdout.write(
  [
    `head ${domain}@v${head.version}: ${live.length} live entries (${active.length} active)`,
    `live entries the policy reads as harmful: ${harmfulLive.length} (${harmfulActive.length} active)${harmfulLive.length ? `: ${harmfulLive.map((r) => `${r.entry.id} (${r.entry.status})`).join(", ")}` : ""}`,
    `most active entries for one pitfall: ${Math.max(0, ...perPitfall.values())} (${[...perPitfall.entries()].map(([p, n]) => `${p} ${n}`).join(", ")})`,
    `active set: ${active.length} entries, ${activeTokens} tokens (budget ${defaultLibraryBudget.maxEntries} entries, ${defaultLibraryBudget.maxTokens} tokens)`,
    "SIMULATED world: these numbers are not a claim about any real model.",
  ].join("\n") + "\n",
);
