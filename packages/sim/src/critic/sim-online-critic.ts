import type { SimNoise } from "../behaviour.js";
import { hashParts, unitFrom } from "../hash.js";
import { between, parseExperienceLines } from "../text/experience-lines.js";
import { applyCriticNoise } from "./critic-noise.js";
import type { CriticOperation, TracedOperation } from "./critic-operation.js";
import type { Finding } from "./finding.js";
import { asksScope, clip, operationsFor } from "./finding-operations.js";
import { analyseGroup } from "./group-analysis.js";
import type { Draw } from "./lesson-writer.js";
import { plantedInstruction } from "./planted-instruction.js";
import { type AttemptEvidence, readSummary } from "./summary-reading.js";

/**
 * The simulated critic's answer to the online reflection prompt (SIMULATED: a test world, not a model). It reads
 * only the prompt: each case's task text, outcome and summary, and the library lines. For every failed case it
 * sets it beside the successful ones (the same stage-2 reasoning as a group of attempts, `analyseGroup`), collects
 * what separates them into a table, then writes at most N rules from the table, in its own words, with the
 * configured critic noise (vague, duplicate, contradictory, wrong-attribution, wrong-id).
 */

export interface OnlineDifferenceRow {
  decision_point: string;
  successes: string;
  failures: string;
}

export interface OnlineCriticAnswer {
  differences: OnlineDifferenceRow[];
  rules: CriticOperation[];
}

export interface OnlineCriticTrace extends OnlineCriticAnswer {
  traced: TracedOperation[];
  findings: Finding[];
}

interface OnlineCaseEvidence {
  task: string;
  evidence: AttemptEvidence;
}

/** `<case index outcome reward>` blocks of the online prompt, with their task and summary. */
function readCases(outcomes: string): OnlineCaseEvidence[] {
  return [...outcomes.matchAll(/<case\b([^>]*)>([\s\S]*?)<\/case>/g)].map((m, i) => {
    const index = Number(/index="(\d+)"/.exec(m[1]!)?.[1] ?? i + 1);
    const rewardText = /reward="([-\d.eE+]+)"/.exec(m[1]!)?.[1];
    const reward = rewardText === undefined ? (/outcome="success"/.test(m[1]!) ? 1 : 0) : Number(rewardText);
    const body = m[2]!;
    return {
      task: between(body, "task") ?? "",
      evidence: readSummary(index, Number.isFinite(reward) ? reward : 0, between(body, "summary") ?? ""),
    };
  });
}

const caseList = (indexes: readonly number[]) =>
  indexes.length === 1 ? `case ${indexes[0]}` : `cases ${indexes.join(", ")}`;

/** "At most 8 rules" and "at most 32 words" as the prompt states them (defaults otherwise). */
function limitsOf(prompt: string): { maxRules: number; maxWords: number } {
  const rules = /at most (\d+) rules/i.exec(prompt);
  const words = /at most (\d+) words/i.exec(prompt);
  return { maxRules: rules ? Number(rules[1]) : 8, maxWords: words ? Number(words[1]) : 32 };
}

export function createSimOnlineCritic(options: { seed: number; noise: SimNoise }) {
  const { seed, noise } = options;

  function trace(prompt: string): OnlineCriticTrace {
    const answer = analyse(prompt);
    const injected = plantedInstruction(
      between(prompt, "outcomes") ?? "",
      noise.critic.obeysInjection ?? 0,
      seed,
      "critic-online-injection",
    );
    if (!injected) return answer;
    const traced = [injected, ...answer.traced];
    return { ...answer, traced, rules: traced.map((t) => t.operation) };
  }

  function analyse(prompt: string): OnlineCriticTrace {
    const cases = readCases(between(prompt, "outcomes") ?? "");
    const library = parseExperienceLines(between(prompt, "experience") ?? "").filter((line) =>
      line.id.startsWith("G"),
    );
    const none: OnlineCriticTrace = { differences: [], rules: [], traced: [], findings: [] };
    const winners = cases.filter((c) => c.evidence.reward >= 1);
    const losers = cases.filter((c) => c.evidence.reward < 1);
    // Without both sides there is nothing to contrast: a careful critic writes no rule rather than a guess.
    if (winners.length === 0 || losers.length === 0) return none;
    const { maxRules, maxWords } = limitsOf(prompt);
    const groupKey = hashParts(...cases.map((c) => `${c.evidence.reward}|${c.task}|${c.evidence.summary}`));
    const draw: Draw = (label, ...extra) => unitFrom("critic-online", seed, label, groupKey, ...extra);

    // Each failure beside the successes: a finding's attempts are case numbers, merged over the failures.
    const byKey = new Map<string, { finding: Finding; task: string; order: number }>();
    const taskOf = new Map(cases.map((c) => [c.evidence.index, c.task]));
    for (const loser of losers) {
      const analysis = analyseGroup(loser.task, [loser.evidence, ...winners.map((w) => w.evidence)]);
      for (const finding of analysis.findings) {
        const known = byKey.get(finding.key);
        if (known) {
          for (const index of finding.attempts)
            if (!known.finding.attempts.includes(index)) known.finding.attempts.push(index);
          known.finding.confidence = Math.max(known.finding.confidence, finding.confidence);
        } else
          byKey.set(finding.key, {
            finding: { ...finding, attempts: [...finding.attempts] },
            task: loser.task,
            order: byKey.size,
          });
      }
    }
    const ranked = [...byKey.values()].sort(
      (a, b) =>
        b.finding.attempts.length - a.finding.attempts.length ||
        b.finding.confidence - a.finding.confidence ||
        a.order - b.order,
    );
    if (ranked.length === 0) return none;

    const winnerIndexes = winners.map((w) => w.evidence.index);
    const differences = ranked.map(({ finding }) => ({
      decision_point: finding.advice.situations[0] ?? finding.key,
      successes: `${caseList(winnerIndexes)}: ${finding.advice.actions[0] ?? "did otherwise"}`,
      failures: `${caseList(finding.attempts)}: ${clip(finding.evidence.replaceAll("attempt", "case"), 300)}`,
    }));

    const operations: TracedOperation[] = [];
    for (const { finding, task } of ranked) {
      if (operations.length >= maxRules) break;
      operations.push(
        ...operationsFor(finding, {
          problem: task,
          library,
          losers: losers.filter((l) => finding.attempts.includes(l.evidence.index)).map((l) => l.evidence),
          winners: winners.map((w) => w.evidence),
          draw: (label, ...extra) => draw(label, finding.key, ...extra),
          asksScope: asksScope(prompt),
        }),
      );
    }
    // The noise a real critic adds acts on the first rules it writes (applyCriticNoise works on up to three).
    const head = operations.slice(0, 3);
    const noisy = applyCriticNoise(head, {
      problem: taskOf.get(ranked[0]!.finding.attempts[0]!) ?? ranked[0]!.task,
      library,
      findings: ranked.map((r) => r.finding),
      domain: losers.some((l) => l.evidence.web.searched || l.evidence.web.pages.length > 0) ? "web" : "math",
      single: false,
      draw,
      noise: noise.critic,
    });
    const traced = [...noisy, ...operations.slice(3)]
      .filter((t) => t.operation.experience === undefined || wordsIn(t.operation.experience) <= maxWords)
      .slice(0, maxRules);
    return {
      differences,
      rules: traced.map((t) => t.operation),
      traced,
      findings: ranked.map((r) => r.finding),
    };
  }

  function reflect(prompt: string): OnlineCriticAnswer {
    const { differences, rules } = trace(prompt);
    return { differences, rules };
  }

  return { reflect, trace };
}

function wordsIn(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
