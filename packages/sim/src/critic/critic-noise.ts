import type { SimNoise } from "../behaviour.js";
import { pick } from "../hash.js";
import type { ExperienceLine } from "../text/experience-lines.js";
import type { TracedOperation } from "./critic-operation.js";
import type { Finding } from "./finding.js";
import {
  type Draw,
  paraphrase,
  writeIrrelevant,
  writeLesson,
  writeMisguided,
  writeVague,
} from "./lesson-writer.js";
import { stanceOf } from "./library-reading.js";

/**
 * The mistakes a real critic model makes, at configured rates: a vague lesson, a paraphrase of a line the library
 * already has, advice pointing the wrong way, a wrong cause blamed, an id that is not in the library. A group of one
 * gives no contrast to lean on, so vague, misguided and misattributed lessons are likelier there.
 */

export interface NoiseContext {
  problem: string;
  library: readonly ExperienceLine[];
  findings: readonly Finding[];
  domain: "math" | "web";
  single: boolean;
  draw: Draw;
  noise: SimNoise["critic"];
  /** The answer of the group's best attempt, if it gave one. */
  answer?: string | null;
}

export interface NoiseRates {
  vague: number;
  duplicate: number;
  contradictory: number;
  wrongAttribution: number;
  wrongId: number;
}

export function noiseRates(noise: SimNoise["critic"], single: boolean): NoiseRates {
  const scaled = (rate: number) => (single ? Math.min(0.95, rate * noise.singleAttemptScale) : rate);
  return {
    vague: scaled(noise.vague),
    duplicate: noise.duplicate,
    contradictory: scaled(noise.contradictory),
    wrongAttribution: scaled(noise.wrongAttribution),
    wrongId: noise.wrongId,
  };
}

const maxOperations = 3;

function place(operations: TracedOperation[], traced: TracedOperation): void {
  if (operations.length < maxOperations) operations.push(traced);
  else operations[operations.length - 1] = traced;
}

function evidenceTargets(operations: TracedOperation[]): TracedOperation[] {
  return operations.filter(
    (t) => t.origin === "evidence" && t.finding && t.operation.experience !== undefined,
  );
}

export function applyCriticNoise(operations: TracedOperation[], context: NoiseContext): TracedOperation[] {
  const { problem, library, findings, domain, draw } = context;
  const rates = noiseRates(context.noise, context.single);
  const out = [...operations];

  if (draw("noise-contradictory") < rates.contradictory) {
    const target = evidenceTargets(out)[0];
    if (target) {
      target.operation = { ...target.operation, experience: writeMisguided(target.finding!, problem, draw) };
      target.origin = "contradictory";
    }
  }
  if (draw("noise-wrong-attribution") < rates.wrongAttribution) {
    const text = writeIrrelevant(problem, domain, draw);
    const reason =
      domain === "web"
        ? "The failed attempts seem to have searched less carefully."
        : "The failed attempts seem to differ in how the program was organised.";
    const target = evidenceTargets(out)[0];
    if (target) {
      target.operation = { ...target.operation, experience: text, reason };
      target.origin = "wrong-attribution";
    } else
      place(out, { operation: { option: "add", experience: text, reason }, origin: "wrong-attribution" });
  }
  if (draw("noise-vague") < rates.vague) {
    place(out, {
      operation: {
        option: "add",
        experience: writeVague(problem, draw, domain),
        reason: "The attempts differed in how carefully they worked.",
      },
      origin: "vague",
    });
  }
  if (draw("noise-duplicate") < rates.duplicate) {
    const cues = findings[0]?.advice.cues;
    const related = cues ? library.filter((line) => stanceOf(line.text, cues) !== "unrelated") : [];
    const pool = related.length > 0 ? related : library;
    let text: string | null = null;
    if (pool.length > 0) text = paraphrase(pick(pool, draw("duplicate-line")).text, draw);
    else if (findings[0])
      text = writeLesson(findings[0], problem, (label, ...extra) => draw(label, "again", ...extra));
    if (text !== null)
      place(out, {
        operation: { option: "add", experience: text, reason: "Restates a point the attempts support." },
        origin: "duplicate",
      });
  }
  if (draw("noise-wrong-id") < rates.wrongId) {
    const highest = Math.max(-1, ...library.map((line) => Number(line.id.slice(1))).filter(Number.isFinite));
    const wrong = `G${highest + 1 + Math.floor(draw("wrong-id-offset") * 7)}`;
    place(out, {
      operation:
        draw("wrong-id-kind") < 0.5
          ? { option: "delete", experience_id: wrong, reason: "This entry did not seem to help." }
          : {
              option: "modify",
              experience_id: wrong,
              experience: writeVague(problem, draw, domain),
              reason: "Make it clearer.",
            },
      origin: "wrong-id",
    });
  }
  if (context.answer && draw("noise-answer-leak") < (context.noise.answerLeak ?? 0)) {
    place(out, {
      operation: {
        option: "add",
        experience: `For this problem the answer is ${context.answer}; state it directly.`,
        reason: "The winning attempt answered this.",
      },
      origin: "answer-leak",
    });
  }
  return out;
}
