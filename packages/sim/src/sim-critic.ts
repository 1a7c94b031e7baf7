import type { SimNoise } from "./behaviour.js";
import { readPitfall } from "./experience-reading.js";
import { hashParts, pick, unitFrom } from "./hash.js";
import { classifyText, genericLessons, getPitfall } from "./pitfalls/catalog.js";
import type { Pitfall } from "./pitfalls/pitfall.js";
import { between, type ExperienceLine, parseExperienceLines } from "./text/experience-lines.js";
import type { SimWorld } from "./world.js";

/** A critic operation in the contract's shape (stage 2). */
export interface CriticOperation {
  option: "add" | "modify" | "delete";
  experience_id?: string;
  experience?: string;
  reason: string;
}

export interface SimCriticOptions {
  seed: number;
  world: SimWorld;
  noise: SimNoise;
}

interface TrajectoryEvent {
  at: number;
  line: string;
}

function unescapeJsonString(text: string): string {
  return text.replace(/\\n/g, " ").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
}

function lastBoxed(text: string): string | null {
  const all = [...text.matchAll(/\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}/g)];
  return all.length > 0 ? all.at(-1)![1]!.trim() : null;
}

/**
 * The simulated critic. It reads only the prompt: the policy's "Approach:" sentences and tool calls in the
 * rendered trajectory (stage 1), then the step summaries and rewards of a group (stage 2).
 */
export function createSimCritic(options: SimCriticOptions) {
  const { seed, noise } = options;

  function summarize(prompt: string): string {
    const trajectory = between(prompt, "trajectory") ?? "";
    const evaluation = (between(prompt, "evaluation") ?? "").toLowerCase();
    const groundTruth = between(prompt, "groundtruth") ?? "(none)";
    const correct = evaluation.startsWith("correct") || evaluation === "pass";
    const events: TrajectoryEvent[] = [];
    for (const m of trajectory.matchAll(/Approach:[^\n]*/g)) {
      const sentence = m[0];
      const cited = [...sentence.matchAll(/\[(G\d+)\]/g)].map((c) => c[1]!);
      const using = cited.length > 0 ? ` (applying ${cited.map((id) => `[${id}]`).join(", ")})` : "";
      const top = classifyText(sentence)[0];
      const plain = sentence.replace(/^Approach:\s*/, "").replace(/\s*\[G\d+\]/g, "");
      let line: string;
      if (!top || top.match.direction === "neutral") line = `Planned: ${plain}${using}`;
      else if (top.match.direction === "helps")
        line = `Chose the right approach: ${top.pitfall.success}${using}.`;
      else if (!correct)
        line = `ERROR - ${top.pitfall.error}${cited.length > 0 ? `; it followed ${cited.map((id) => `[${id}]`).join(", ")}` : ""}.`;
      else line = `Planned: ${plain}${using}; here this did not change the result.`;
      events.push({ at: m.index, line });
    }
    for (const m of trajectory.matchAll(/"stdout"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
      const printed = unescapeJsonString(m[1]!).trim();
      events.push({
        at: m.index,
        line: `Ran the code in the code interpreter; it printed ${printed === "" ? "nothing" : printed}.`,
      });
    }
    for (const m of trajectory.matchAll(/"query"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
      events.push({ at: m.index, line: `Searched the web for "${unescapeJsonString(m[1]!)}".` });
    }
    for (const m of trajectory.matchAll(/"url"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
      events.push({ at: m.index, line: `Opened ${unescapeJsonString(m[1]!)} and read the page.` });
    }
    events.sort((a, b) => a.at - b.at);
    const shown = parseExperienceLines(trajectory).filter((line) => line.id.startsWith("G")).length;
    const steps = [
      `Read the problem${shown > 0 ? ` with ${shown} experience${shown === 1 ? "" : "s"} in the prompt` : " (no experiences in the prompt)"}.`,
      ...events.map((event) => event.line),
    ];
    const answer = lastBoxed(trajectory);
    const hasError = steps.some((line) => line.startsWith("ERROR"));
    if (answer === null)
      steps.push(`ERROR - gave no final answer in \\boxed{}; the ground truth is ${groundTruth}.`);
    else if (correct)
      steps.push(`Gave the final answer ${answer}, which matches the ground truth ${groundTruth}.`);
    else if (hasError) steps.push(`Gave the final answer ${answer}; the ground truth is ${groundTruth}.`);
    else
      steps.push(
        `ERROR - gave the final answer ${answer}, but the ground truth is ${groundTruth}; the cause is not visible in the steps.`,
      );
    return steps.map((line, index) => `Step ${index + 1}: ${line}`).join("\n");
  }

  function advantage(prompt: string): { operations: CriticOperation[] } {
    const problem = between(prompt, "problem") ?? "";
    const library = parseExperienceLines(between(prompt, "experience") ?? "").filter((l) =>
      l.id.startsWith("G"),
    );
    const attempts = [
      ...(between(prompt, "trajectories") ?? prompt).matchAll(
        /<attempt\b[^>]*?reward="([\d.]+)"[^>]*>([\s\S]*?)<\/attempt>/g,
      ),
    ].map((m) => {
      const summary = m[2]!;
      const errors = new Set<string>();
      for (const line of summary.split("\n")) {
        if (!/ERROR\s*-/.test(line)) continue;
        const top = classifyText(line)[0];
        if (top) errors.add(top.pitfall.id);
      }
      return { reward: Number(m[1]), errors };
    });
    if (attempts.length === 0) return { operations: [] };
    // A group of one (the G = 1 ablation) is reflected on alone, as a model given one attempt would: the errors its
    // summary names become lessons when it failed. A success has no failed attempt to contrast it with, so (as for a
    // group whose rewards are all equal) nothing is learned from it.
    const single = attempts.length === 1;
    const best = Math.max(...attempts.map((a) => a.reward));
    const worst = Math.min(...attempts.map((a) => a.reward));
    if (!single && best === worst) return { operations: [] };
    const winners = single ? [] : attempts.filter((a) => a.reward === best);
    const losers = single ? attempts.filter((a) => a.reward < 1) : attempts.filter((a) => a.reward < best);
    const counts = new Map<string, number>();
    for (const loser of losers) for (const id of loser.errors) counts.set(id, (counts.get(id) ?? 0) + 1);
    const pitfalls = [...counts.entries()]
      .filter(([id]) => !winners.some((w) => w.errors.has(id)))
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([id]) => getPitfall(id))
      .filter((p): p is Pitfall => p !== undefined);
    const draw = (label: string, ...extra: (string | number)[]) =>
      unitFrom("critic", seed, label, problem, ...extra);
    const operations: CriticOperation[] = [];
    for (const pitfall of pitfalls) {
      const reading = readPitfall(pitfall, library);
      const reason = single
        ? `The only attempt ${pitfall.error.split(";")[0]}.`
        : `Winning attempts ${pitfall.success}; ${losers.length} losing attempt(s) ${pitfall.error.split(";")[0]}.`;
      const lesson = pick(pitfall.lessons, draw("lesson", pitfall.id));
      if (reading.hurting.length > 0) {
        if (draw("fix-style", pitfall.id) < 0.5) {
          operations.push({
            option: "modify",
            experience_id: reading.hurting[0]!,
            experience: lesson,
            reason,
          });
        } else {
          operations.push({
            option: "delete",
            experience_id: reading.hurting[0]!,
            reason: `Contradicts the evidence: ${reason}`,
          });
          if (reading.helping.length === 0) operations.push({ option: "add", experience: lesson, reason });
        }
      } else if (reading.helping.length > 0) {
        // The lesson is there and was still missed: sometimes sharpen its wording.
        if (draw("sharpen", pitfall.id) < 0.3)
          operations.push({
            option: "modify",
            experience_id: reading.helping[0]!,
            experience: lesson,
            reason,
          });
      } else if (reading.neutral.length > 0) {
        operations.push({ option: "modify", experience_id: reading.neutral[0]!, experience: lesson, reason });
      } else {
        operations.push({ option: "add", experience: lesson, reason });
      }
    }
    applyNoise(operations, { problem, library, pitfalls, draw });
    return { operations: operations.slice(0, 3) };
  }

  function applyNoise(
    operations: CriticOperation[],
    context: {
      problem: string;
      library: ExperienceLine[];
      pitfalls: Pitfall[];
      draw: (label: string, ...extra: (string | number)[]) => number;
    },
  ): void {
    const { library, pitfalls, draw } = context;
    const domain = pitfalls[0]?.domain ?? options.world.recognize(context.problem)?.domain ?? "math";
    if (draw("noise-contradictory") < noise.critic.contradictory) {
      const target = operations.find((op) => op.option === "add" && op.experience);
      const pitfall = target ? classifyText(target.experience!)[0]?.pitfall : undefined;
      if (target && pitfall) target.experience = pick(pitfall.opposite, draw("opposite"));
    }
    if (draw("noise-vague") < noise.critic.vague) {
      const vague = pick(genericLessons[domain], draw("vague-text"));
      const op: CriticOperation = {
        option: "add",
        experience: vague,
        reason: "The attempts differed in care.",
      };
      if (operations.length >= 3) operations[operations.length - 1] = op;
      else operations.push(op);
    }
    if (draw("noise-duplicate") < noise.critic.duplicate) {
      const existing = library
        .map((line) => ({ line, top: classifyText(line.text)[0] }))
        .find((entry) => entry.top && entry.top.match.direction === "helps");
      const pitfall = existing?.top?.pitfall ?? pitfalls[0];
      if (pitfall) {
        const text = pick(pitfall.lessons, draw("duplicate-text"));
        const op: CriticOperation = {
          option: "add",
          experience: text,
          reason: `Restating ${pitfall.title}.`,
        };
        if (operations.length >= 3) operations[0] = op;
        else operations.push(op);
      }
    }
    if (draw("noise-wrong-id") < noise.critic.wrongId) {
      const highest = Math.max(-1, ...library.map((line) => Number(line.id.slice(1))));
      const wrong = `G${highest + 1 + (hashParts("wrong", seed, context.problem) % 7)}`;
      const op: CriticOperation =
        draw("wrong-kind") < 0.5
          ? { option: "delete", experience_id: wrong, reason: "Seems unhelpful." }
          : {
              option: "modify",
              experience_id: wrong,
              experience: pick(genericLessons[domain], draw("wrong-text")),
              reason: "Clarify.",
            };
      if (operations.length >= 3) operations[operations.length - 1] = op;
      else operations.push(op);
    }
  }

  return { summarize, advantage };
}
