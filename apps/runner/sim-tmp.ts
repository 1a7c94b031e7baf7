import { readFileSync } from "node:fs";
import { cosineSimilarity, embedText } from "@tfgrpo/sim";

const lessons = Object.entries(JSON.parse(readFileSync("/tmp/planted/planted.json", "utf8"))) as [
  string,
  string,
][];
const bank = JSON.parse(readFileSync("../../test-data/lesson-bank-2/math.json", "utf8"));
const more: [string, string][] = [];
for (const [k, v] of Object.entries<any>(bank.pitfalls)) more.push([`C:${k}`, v.correct[1]]);
const all = [...lessons, ...more];
const tasks = readFileSync("/tmp/planted/train.jsonl", "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l));
const byFamily = new Map<string, number[][]>();
for (const t of tasks) {
  const tv = embedText(t.question);
  const sims = all.map(([, text]) => cosineSimilarity(tv, embedText(text)));
  const order = [...sims.keys()].sort((a, b) => sims[b]! - sims[a]!);
  const ranks = sims.map((_, i) => order.indexOf(i));
  const f = t.meta.family;
  if (!byFamily.has(f)) byFamily.set(f, []);
  byFamily.get(f)!.push(ranks);
}
console.log("lesson ranks (mean over tasks of family), of", all.length);
console.log("family".padEnd(20), all.map(([id]) => id.slice(0, 6).padStart(6)).join(""));
for (const [f, rows] of byFamily) {
  const mean = all.map((_, i) => rows.reduce((s, r) => s + r[i]!, 0) / rows.length);
  console.log(f.padEnd(20), mean.map((m) => m.toFixed(1).padStart(6)).join(""));
}
