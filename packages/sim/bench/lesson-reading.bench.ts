// How the simulated policy reads lessons written by people who never read the sim: per pitfall, the share of correct
// lessons read as helpful, of harmful ones read as harmful, of vague lessons and stubs acting fully, and the share of
// unrelated advice with any effect. Bank 1 (test-data/lesson-bank) is the one the reader was tuned on, shown by half.
// Bank 2 (test-data/lesson-bank-2, another author) was first measured untouched (math 66% / 49% / 12.5%, web 75% / 60%
// / 0%); its misreads then guided some vocabulary, so it is no longer a clean held-out set either (docs/sim.md).
// `pnpm --filter @tfgrpo/sim bench`.
import { measureRecognition } from "../src/policy/lesson-recognition.js";
import { type LessonBankHalf, type LessonBankName, loadLessonBank } from "../src/testing/index.js";

const percent = (hit: number, total: number) => (total === 0 ? "-" : `${((100 * hit) / total).toFixed(0)}%`);

const banks: { name: LessonBankName; half: LessonBankHalf; label: string }[] = [
  { name: "lesson-bank", half: "dev", label: "bank 1, even half (tuned on)" },
  { name: "lesson-bank", half: "holdout", label: "bank 1, odd half (tuned on later)" },
  { name: "lesson-bank-2", half: "all", label: "bank 2 (another author; seen once)" },
];

console.log("SIMULATED policy: how it reads independently written lessons\n");
const summary: string[][] = [];
for (const bank of banks) {
  for (const domain of ["math", "web"] as const) {
    const report = measureRecognition(loadLessonBank(domain, bank.half, bank.name));
    console.log(`${bank.label}, ${domain}`);
    console.log("  pitfall                  correct→helps  harmful→hurts  vague/stub acting");
    for (const row of report.rows)
      console.log(
        `  ${row.pitfall.padEnd(24)} ${percent(row.correct.helpful, row.correct.total).padStart(13)}  ${percent(row.harmful.harmful, row.harmful.total).padStart(13)}  ${percent(row.weak.acting, row.weak.total).padStart(17)}`,
      );
    const t = report.totals;
    summary.push([
      bank.label,
      domain,
      `${(100 * t.correctHelpful).toFixed(1)}%`,
      `${(100 * t.harmfulHarmful).toFixed(1)}%`,
      `${(100 * t.unrelatedActing).toFixed(1)}%`,
      `${(100 * t.weakActing).toFixed(1)}%`,
    ]);
  }
}
console.log(
  "\n| bank | domain | correct read as helpful | harmful read as harmful | unrelated with any effect | vague/stubs acting |",
);
console.log("|---|---|---|---|---|---|");
for (const row of summary) console.log(`| ${row.join(" | ")} |`);
console.log("\ntargets (issue 12): ≥ 90% | ≥ 90% | ≤ 5%");
