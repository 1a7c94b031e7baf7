import { hashParts, pick, unitFrom } from "./hash.js";
import { genericLessons } from "./pitfalls/catalog.js";
import { between } from "./text/experience-lines.js";
import type { SimWorld } from "./world.js";

export interface DirectExperienceOptions {
  seed: number;
  world: SimWorld;
  /** Chance that a lesson hits a real pitfall of the problems (the rest is generic advice). */
  insightRate?: number;
}

/**
 * Lessons written from the problems alone, without rollouts (the paper's "direct experiences" baseline). Mostly
 * generic advice; about one in four names a real pitfall of one of the problems, so it is weaker than learning
 * from rollouts.
 */
export function writeDirectExperiences(
  prompt: string,
  options: DirectExperienceOptions,
): { experiences: string[] } {
  const { seed, world } = options;
  const insightRate = options.insightRate ?? 0.25;
  const count = Math.max(0, Math.min(50, Number(between(prompt, "lesson_count") ?? "5") || 0));
  const domainText = (between(prompt, "domain") ?? "").trim();
  const problems = (between(prompt, "problems") ?? "")
    .split("\n")
    .map((line) => line.replace(/^\s*-\s*/, "").trim())
    .filter(Boolean);
  const instances = problems.map((question) => world.recognize(question)).filter((i) => i !== null);
  const domain: "math" | "web" = domainText === "web" || instances[0]?.domain === "web" ? "web" : "math";
  const pitfalls = [...new Set(instances.flatMap((i) => i.activePitfalls))];
  const bank = [...genericLessons[domain]];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const draw = unitFrom("direct", seed, prompt, i);
    let lesson: string | undefined;
    if (draw < insightRate && pitfalls.length > 0) {
      const pitfall = pick(pitfalls, unitFrom("direct-pitfall", seed, prompt, i));
      lesson = pick(pitfall.lessons, unitFrom("direct-text", seed, prompt, i));
    } else if (bank.length > 0) {
      lesson = bank.splice(hashParts("direct-generic", seed, prompt, i) % bank.length, 1)[0];
    }
    if (lesson === undefined) lesson = `When stuck on a ${domain} problem, restate what is asked (${i + 1}).`;
    let unique = lesson;
    for (let k = 2; out.includes(unique); k++) unique = `${lesson.replace(/\.$/, "")} (${k}).`;
    out.push(unique);
  }
  return { experiences: out };
}
