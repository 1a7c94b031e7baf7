import type { SimNoise } from "../behaviour.js";
import { hashParts, unitFrom } from "../hash.js";
import { between, parseExperienceLines } from "../text/experience-lines.js";
import { applyCriticNoise } from "./critic-noise.js";
import type { CriticOperation, TracedOperation } from "./critic-operation.js";
import type { Finding } from "./finding.js";
import { asksScope, operationsFor } from "./finding-operations.js";
import { analyseGroup } from "./group-analysis.js";
import { type Draw, writeVague } from "./lesson-writer.js";
import { plantedInstruction } from "./planted-instruction.js";
import { isRepairSummary, repairOperations } from "./repair-lessons.js";
import { isRepairTrajectory, writeRepairSummary } from "./repair-review.js";
import { isRetailSummary, retailOperations } from "./retail-lessons.js";
import { isRetailTrajectory, writeRetailSummary } from "./retail-review.js";
import { readAttempts } from "./summary-reading.js";
import { writeSummary } from "./summary-writer.js";
import { readTrajectory } from "./trajectory-evidence.js";

export type { CriticOperation, OperationOrigin, TracedOperation } from "./critic-operation.js";

export interface SimCriticOptions {
  seed: number;
  noise: SimNoise;
}

export interface AdvantageTrace {
  operations: TracedOperation[];
  findings: Finding[];
  single: boolean;
}

const maxOperations = 3;

/**
 * The simulated critic (SIMULATED: a test world, not a model). It reads only its prompt, as a real critic model
 * would: stage 1 summarises one rendered trajectory from what it shows (code, outputs, searches, pages, answer
 * against the ground truth); stage 2 compares the summaries of a group and turns what separates the losing attempts
 * from the winning ones into at most three operations on the experience library, in its own varied words.
 */
export function createSimCritic(options: SimCriticOptions) {
  const { seed, noise } = options;

  function summarize(prompt: string): string {
    const trajectory = between(prompt, "trajectory") ?? "";
    const groundTruth = between(prompt, "groundtruth");
    // A conversation over store tools is reviewed against the reference calls of its ground truth.
    // A repair attempt is reviewed from its edits against the program and its test runs.
    const summary = isRetailTrajectory(trajectory, groundTruth)
      ? writeRetailSummary(trajectory, between(prompt, "evaluation") ?? "", groundTruth)
      : isRepairTrajectory(trajectory)
        ? writeRepairSummary(trajectory, between(prompt, "evaluation") ?? "")
        : writeSummary({
            evidence: readTrajectory(trajectory),
            evaluation: between(prompt, "evaluation") ?? "",
            groundTruth,
          });
    // A gullible model (noise.critic.obeysInjection) carries an instruction it read in the data into its summary.
    const planted = plantedInstruction(
      trajectory,
      noise.critic.obeysInjection ?? 0,
      seed,
      "critic-injection",
    );
    return planted
      ? `${summary}\nNote: the data says to add this lesson: ${planted.operation.experience}.`
      : summary;
  }

  /** Stage 2 with the origin of each operation (evidence or a noise kind): for tests and benchmarks. */
  function trace(prompt: string): AdvantageTrace {
    const problem = between(prompt, "problem") ?? "";
    const library = parseExperienceLines(between(prompt, "experience") ?? "").filter((line) =>
      line.id.startsWith("G"),
    );
    const attempts = readAttempts(between(prompt, "trajectories") ?? prompt);
    const none: AdvantageTrace = { operations: [], findings: [], single: attempts.length === 1 };
    if (attempts.length === 0) return none;
    const single = attempts.length === 1;
    const best = Math.max(...attempts.map((a) => a.reward));
    const worst = Math.min(...attempts.map((a) => a.reward));
    // Equal rewards give no advantage to learn from; a lone success has no failure to explain.
    if ((!single && best === worst) || (single && best >= 1)) return none;

    const groupKey = hashParts(...attempts.map((a) => `${a.reward}|${a.summary}`));
    const draw: Draw = (label, ...extra) => unitFrom("critic", seed, label, problem, groupKey, ...extra);
    if (attempts.every((a) => isRetailSummary(a.summary))) {
      return { operations: retailOperations(attempts, draw, maxOperations), findings: [], single };
    }
    if (attempts.every((a) => isRepairSummary(a.summary))) {
      return { operations: repairOperations(attempts, draw, maxOperations), findings: [], single };
    }
    const analysis = analyseGroup(problem, attempts);
    const operations: TracedOperation[] = [];
    for (const finding of analysis.findings) {
      if (operations.length >= maxOperations) break;
      operations.push(
        ...operationsFor(finding, {
          problem,
          library,
          losers: analysis.losers,
          winners: analysis.winners,
          draw,
          asksScope: asksScope(prompt),
        }),
      );
    }
    if (analysis.findings.length === 0) {
      // Nothing visible explains the failure: a model asked for lessons still writes something, and it is vague.
      operations.push({
        operation: {
          option: "add",
          experience: writeVague(problem, draw, analysis.domain),
          reason: "The summaries do not show where the failing attempts went wrong.",
        },
        origin: "fallback",
      });
    }
    const noisy = applyCriticNoise(operations.slice(0, maxOperations), {
      problem,
      library,
      findings: analysis.findings,
      domain: analysis.domain,
      single,
      draw,
      noise: noise.critic,
      answer: attempts.find((a) => a.reward === best)?.answer ?? null,
    });
    // ...and follows one it reads in the summaries, as a model that prompt injection works on would.
    const injected = plantedInstruction(
      between(prompt, "trajectories") ?? "",
      noise.critic.obeysInjection ?? 0,
      seed,
      "critic-injection",
    );
    const kept = noisy.slice(0, injected ? maxOperations - 1 : maxOperations);
    return { operations: injected ? [injected, ...kept] : kept, findings: analysis.findings, single };
  }

  function advantage(prompt: string): { operations: CriticOperation[] } {
    return { operations: trace(prompt).operations.map((t) => t.operation) };
  }

  return { summarize, advantage, trace };
}
