/**
 * The simulated repair world measured directly (SIMULATED), without the learning loop: for each program, how deep in
 * the agent's order its first edit that passes every case lies when it makes no mistake (its reach), and how often
 * it solves the program with no lesson in its prompt against one hand-written lesson per trap. Every edit runs in
 * the real sandbox on every case. A benchmark, not a test.
 *
 *   pnpm --filter @tfgrpo/sim bench:repair-world [--data DIR] [--programs a,b] [--seeds 2] [--case-ms 1000]
 *     [--reach-only] [--unseen]
 *
 * `--unseen` measures the ten programs of `repair-unseen-programs.ts` (written for this check, held apart from
 * the world's development) instead of the QuixBugs folder.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  createProgramCatalog,
  createRepairSandbox,
  listQuixbugsPrograms,
  type RepairProgram,
} from "@tfgrpo/code-repair";
import {
  oneLessonPerTrap,
  repairAttempt,
  repairReach,
  writtenProgram,
} from "../src/policy/repair/repair-attempt.test-support.js";
import { unseenPrograms } from "./repair-unseen-programs.js";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    programs: { type: "string" },
    seeds: { type: "string", default: "2" },
    "case-ms": { type: "string", default: "1000" },
    "reach-only": { type: "boolean", default: false },
    unseen: { type: "boolean", default: false },
  },
});
const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = path.resolve(values.data ?? path.join(here, "../../../test-data/quixbugs"));
const sandbox = createRepairSandbox({ caseTimeoutMs: Number(values["case-ms"]) });
const chosen = values.programs?.split(",").filter(Boolean);

const programs: { program: RepairProgram; kind: string }[] = values.unseen
  ? unseenPrograms.map((spec) => ({
      program: writtenProgram(spec.name, spec.source, spec.cases),
      kind: spec.kind,
    }))
  : (() => {
      const catalog = createProgramCatalog(dataDir);
      return listQuixbugsPrograms(dataDir).map((name) => ({ program: catalog.get(name), kind: "" }));
    })();
const seeds = Array.from({ length: Number(values.seeds) }, (_, index) => String(index));
const started = Date.now();
const rows: string[] = [];
let reached = 0;
let bare = 0;
let taught = 0;
let attempts = 0;
try {
  for (const { program, kind } of programs) {
    if (chosen && !chosen.includes(program.name)) continue;
    const reach = await repairReach(sandbox, program, 30);
    if (reach !== null && reach <= 10) reached++;
    let row = `${program.name.padEnd(28)} reach ${String(reach ?? "-").padStart(3)}`;
    if (!values["reach-only"]) {
      let none = 0;
      let lessons = 0;
      for (const seed of seeds) {
        if ((await repairAttempt(sandbox, program, seed, [])).solved) none++;
        if ((await repairAttempt(sandbox, program, seed, oneLessonPerTrap)).solved) lessons++;
      }
      bare += none;
      taught += lessons;
      attempts += seeds.length;
      row += `   no lesson ${none}/${seeds.length}   one lesson per trap ${lessons}/${seeds.length}`;
    }
    rows.push(`${row}${kind ? `   (${kind})` : ""}`);
    process.stderr.write(`${rows.at(-1)}\n`);
  }
} finally {
  await sandbox.close();
}
const share = (n: number) => `${n}/${attempts} = ${((100 * n) / Math.max(1, attempts)).toFixed(1)}%`;
process.stdout.write(
  `## the simulated repair world (SIMULATED), ${values.unseen ? "programs held apart" : dataDir}\n\n`,
);
process.stdout.write(`${rows.join("\n")}\n\n`);
process.stdout.write(`fix within the first 10 edits: ${reached}/${rows.length}\n`);
if (!values["reach-only"])
  process.stdout.write(`solved: no lesson ${share(bare)}; one lesson per trap ${share(taught)}\n`);
process.stdout.write(`(${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
