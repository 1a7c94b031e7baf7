// How the SIMULATED policy reads a bank written by someone who never read the sim, lesson by lesson: for each family
// of a math or web bank (keyed by the task family the author saw), each correct / harmful lesson and stub is read
// against the pitfalls of that family, and each unrelated lesson against every pitfall of the domain. For a retail
// bank (keyed by the author's traps, which the sim does not know) every lesson is read against every retail trap.
//
//   pnpm --filter @tfgrpo/sim bench:written-bank [--bank test-data/lesson-bank-7] [--verbose]
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { allPitfalls } from "../src/pitfalls/catalog.js";
import type { Pitfall } from "../src/pitfalls/pitfall.js";
import { retailPitfalls } from "../src/pitfalls/retail-pitfalls.js";
import { type LessonReading, readLesson } from "../src/policy/read-lesson.js";
import { mathFamilies } from "../src/suites/math-families.js";
import { mathHeldOutFamilies } from "../src/suites/math-held-out-families.js";
import { webFamilies } from "../src/suites/web.js";

const { values } = parseArgs({
  options: {
    bank: { type: "string", default: "test-data/lesson-bank-7" },
    verbose: { type: "boolean", default: false },
  },
});
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bankSchema = z.object({
  families: z.record(
    z.string(),
    z.object({ correct: z.array(z.string()), harmful: z.array(z.string()), stubs: z.array(z.string()) }),
  ),
  unrelated: z.array(z.string()),
});

const familyPitfalls = new Map<string, readonly Pitfall[]>(
  [...mathFamilies, ...mathHeldOutFamilies, ...webFamilies].map((family) => [family.id, family.pitfalls]),
);

type Verdict = "helps" | "hurts" | "both" | "weak" | "none";

/** A lesson against some pitfalls: helps on one, hurts on one, both, only vague / half strength, or nothing. */
function verdict(readings: readonly LessonReading[]): Verdict {
  const helps = readings.some((reading) => reading.effect === "helps");
  const hurts = readings.some((reading) => reading.effect === "hurts");
  if (helps && hurts) return "both";
  if (helps) return "helps";
  if (hurts) return "hurts";
  return readings.some((reading) => reading.effect === "vague") ? "weak" : "none";
}

const count = (verdicts: readonly Verdict[], which: Verdict) => verdicts.filter((v) => v === which).length;

for (const domain of ["math", "web", "retail"] as const) {
  let bank: z.infer<typeof bankSchema>;
  try {
    bank = bankSchema.parse(
      JSON.parse(readFileSync(path.join(root, values.bank!, `${domain}.json`), "utf8")),
    );
  } catch {
    continue;
  }
  const domainPitfalls = [...allPitfalls, ...retailPitfalls].filter((pitfall) => pitfall.domain === domain);
  console.log(`\n## ${domain} (${values.bank}), SIMULATED reader\n`);
  console.log(
    "| family | correct: helps / hurts / weak / none | harmful: hurts / helps / weak / none | stubs acting |",
  );
  console.log("|---|---|---|---|");
  const byForm = new Map<number, Verdict[]>();
  const totals = { correct: [] as Verdict[], harmful: [] as Verdict[], stubs: [] as Verdict[] };
  for (const [family, lessons] of Object.entries(bank.families)) {
    const pitfalls = domain === "retail" ? domainPitfalls : (familyPitfalls.get(family) ?? []);
    if (pitfalls.length === 0)
      console.log(`(family ${family} is not one of the sim's: read against nothing)`);
    const read = (text: string) => verdict(pitfalls.map((pitfall) => readLesson(pitfall.reading, text)));
    const correct = lessons.correct.map(read);
    const harmful = lessons.harmful.map(read);
    const stubs = lessons.stubs.map(read);
    for (const [i, v] of correct.entries()) byForm.set(i, [...(byForm.get(i) ?? []), v]);
    totals.correct.push(...correct);
    totals.harmful.push(...harmful);
    totals.stubs.push(...stubs);
    console.log(
      `| ${family} | ${count(correct, "helps")} / ${count(correct, "hurts") + count(correct, "both")} / ${count(correct, "weak")} / ${count(correct, "none")} of ${correct.length} | ${count(harmful, "hurts")} / ${count(harmful, "helps") + count(harmful, "both")} / ${count(harmful, "weak")} / ${count(harmful, "none")} of ${harmful.length} | ${stubs.length - count(stubs, "none") - count(stubs, "weak")} of ${stubs.length} |`,
    );
    if (values.verbose) {
      for (const [kind, texts, verdicts] of [
        ["correct", lessons.correct, correct],
        ["harmful", lessons.harmful, harmful],
        ["stub", lessons.stubs, stubs],
      ] as const)
        for (const [i, text] of texts.entries()) console.log(`    ${kind} ${i + 1} ${verdicts[i]}: ${text}`);
    }
  }
  const unrelated = bank.unrelated.map((text) =>
    verdict(domainPitfalls.map((pitfall) => readLesson(pitfall.reading, text))),
  );
  const share = (verdicts: readonly Verdict[], which: Verdict) =>
    `${((100 * count(verdicts, which)) / Math.max(1, verdicts.length)).toFixed(0)}%`;
  console.log(
    `\ncorrect read as helping ${share(totals.correct, "helps")}, as hurting ${share([...totals.correct.filter((v) => v === "both"), ...totals.correct], "hurts")}` +
      ` (+${count(totals.correct, "both")} both ways); harmful read as hurting ${share(totals.harmful, "hurts")}, as helping ${share(totals.harmful, "helps")};` +
      ` stubs acting ${totals.stubs.length - count(totals.stubs, "none") - count(totals.stubs, "weak")} of ${totals.stubs.length}; unrelated acting ${unrelated.length - count(unrelated, "none")} of ${unrelated.length}`,
  );
  console.log(`\ncorrect lessons by form (the bank's order): helps / hurts / weak / none`);
  for (const [form, verdicts] of byForm)
    console.log(
      `  form ${form + 1}: ${count(verdicts, "helps")} / ${count(verdicts, "hurts") + count(verdicts, "both")} / ${count(verdicts, "weak")} / ${count(verdicts, "none")}`,
    );
}
