import type { Proposal } from "@tfgrpo/protocol";
import { createSuite } from "@tfgrpo/sim";
import { describe, expect, it } from "vitest";
import { checkLeakage, createLeakageIndex } from "./leakage-check.js";
import { leakageFingerprintsOf } from "./leakage-fingerprints.js";

// Real AIME 2024 problems (test-data/benchmarks/aime-2024.sample.jsonl).
const tasks = [
  {
    id: "aime-2024-13",
    question:
      "Find the largest possible real part of \\[(75+117i)z+\\frac{96+144i}{z}\\]where $z$ is a complex number with $|z|=4$.",
    answer: "540",
  },
  {
    id: "aime-2024-8",
    question:
      "There exist real numbers $x$ and $y$, both greater than 1, such that $\\log_x\\left(y^x\\right)=\\log_y\\left(x^{4y}\\right)=10$. Find $xy$.",
    answer: "025",
  },
  { id: "web-1", question: "Which city hosts the example conference workshop day?", answer: "Lisbon" },
];

const proposal = (text: string, index = 0): Proposal => ({
  proposalId: `p${index}`,
  op: "add",
  text,
  reason: "r",
  groupId: "g",
  taskId: "t",
});

describe("checkLeakage", () => {
  it("refuses lessons carrying an answer or a question's constants, keeps real lessons", () => {
    const { kept, refused } = checkLeakage(
      [
        proposal("For max of a real part with |z|=r, write z = r e^{iθ}; the answer here is 540.", 0),
        proposal("When the expression has (75+117i) and 96+144i, factor out 3 first.", 1),
        proposal("Before answering a web question about an event, open the official page and cite it.", 2),
        proposal("The workshop day is in Lisbon, so answer with the city name.", 3),
        proposal("For log equations, convert every log to one base before solving for the product.", 4),
        proposal("Exist real numbers x and y both greater than 1 such that: use logs.", 5),
        { ...proposal("", 6), op: "delete", id: "G1", text: undefined },
        proposal("Check small cases such as n = 2 and n = 3 before generalizing to 100 terms.", 7),
        proposal("Answer 25 when asked for xy.", 8),
      ],
      { tasks },
    );
    expect(refused.map((finding) => [finding.proposal.proposalId, finding.reason])).toEqual([
      ["p0", 'contains the answer of task aime-2024-13 ("540")'],
      ["p1", "copies constants of task aime-2024-13's question (75, 117, 96, 144)"],
      ["p3", 'contains the answer of task web-1 ("Lisbon")'],
      ["p5", 'copies task aime-2024-8\'s question word for word ("exist real numbers x and y both greater")'],
    ]);
    // "025" normalizes to "25", too short to be told from an ordinary number: kept (a known limit).
    expect(kept.map((entry) => entry.proposalId)).toEqual(["p2", "p4", "p6", "p7", "p8"]);
  });
});

/**
 * The check as it was when every request carried the tasks: a plain scan of every task. The index over stored
 * fingerprints must refuse exactly what it refuses, with the same reason (the same task named).
 */
function plainScan(
  proposals: readonly Proposal[],
  pool: ReadonlyArray<{ id: string; question: string; answer?: string }>,
): Array<[string, string | undefined]> {
  const common = new Set(["10", "100", "1000", "12", "24", "60", "90", "180", "360", "1024"]);
  const numbers = /(?<![\d.])-?\d+(?:\.\d+)?(?:\/\d+)?(?![\d.])/g;
  const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const normalize = (answer: string) =>
    answer
      .trim()
      .replace(/^\$|\$$/g, "")
      .replace(/^0+(?=\d)/, "");
  const distinctive = (answer: string) => {
    if (/^-?\d+$/.test(answer)) return answer.replace("-", "").length >= 3 && !common.has(answer);
    if (/^-?\d+(?:\.\d+|\/\d+)$/.test(answer)) return answer.length >= 3;
    return answer.length >= 4 && wordsOf(answer).length > 0;
  };
  const contains = (text: string, answer: string) =>
    new RegExp(
      `(?<![\\p{L}\\p{N}])${answer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`,
      "iu",
    ).test(text);
  const constantsOf = (question: string) =>
    [...new Set((question.match(numbers) ?? []).map((value) => value.replace(/^-/, "")))].filter(
      (value) => value.replace(/\D/g, "").length >= 2 && !common.has(value),
    );
  const answers = pool.flatMap((task) => {
    const answer = task.answer === undefined ? "" : normalize(task.answer);
    return answer && distinctive(answer) ? [{ id: task.id, answer }] : [];
  });
  const questions = pool.map((task) => ({
    id: task.id,
    constants: constantsOf(task.question),
    words: wordsOf(task.question),
  }));
  const leakIn = (text: string): string | undefined => {
    for (const { id, answer } of answers) {
      if (contains(text, answer)) return `contains the answer of task ${id} ("${answer}")`;
    }
    const lessonNumbers = new Set((text.match(numbers) ?? []).map((value) => value.replace(/^-/, "")));
    const lessonWords = wordsOf(text);
    const lessonPhrases = new Set(
      lessonWords
        .slice(0, Math.max(0, lessonWords.length - 7))
        .map((_, index) => lessonWords.slice(index, index + 8).join(" ")),
    );
    for (const question of questions) {
      const copied = question.constants.filter((constant) => lessonNumbers.has(constant));
      const rare = copied.filter((constant) => constant.replace(/\D/g, "").length >= 3);
      if (copied.length >= 2 || rare.length >= 1) {
        return `copies constants of task ${question.id}'s question (${copied.join(", ")})`;
      }
      for (let index = 0; index + 8 <= question.words.length; index++) {
        if (lessonPhrases.has(question.words.slice(index, index + 8).join(" "))) {
          return `copies task ${question.id}'s question word for word ("${question.words.slice(index, index + 8).join(" ")}")`;
        }
      }
    }
    return undefined;
  };
  return proposals.map((p) => [p.proposalId, (p.text ?? "").trim() === "" ? undefined : leakIn(p.text!)]);
}

describe("the leakage check over stored fingerprints", () => {
  it("refuses exactly what a plain scan of the tasks refuses, naming the same task, on a pool of thousands", () => {
    const pool = [
      ...tasks,
      // Matched case-insensitively as Unicode folds case: the Kelvin sign is a k, the long s an s.
      { id: "web-2", question: "Where do visitors buy tickets?", answer: "Kiosk stand" },
      ...createSuite({ domain: "math", seed: 11, size: 1500, split: "train" }),
      ...createSuite({ domain: "math", seed: 11, size: 200, split: "val" }),
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const clean = [
      "Before answering, check small cases with code and compare them with the formula.",
      "Count the boundary values of an inclusive range: both ends are included.",
      "Keep fractions exact; convert to a decimal only when asked.",
      "For averages of groups, weight each mean by its group size.",
    ];
    const proposals: Proposal[] = [proposal("Buy them at the \u212aio\u017fk STAND by the gate.", 999)];
    for (let index = 0; index < 120; index++) {
      const task = pick(pool);
      const questionWords = task.question.split(/\s+/);
      const start = Math.floor(random() * Math.max(1, questionWords.length - 9));
      const variants = [
        `${pick(clean)} The answer is ${task.answer}.`,
        `${pick(clean)} Like ${questionWords.slice(start, start + 9).join(" ")}.`,
        `${pick(clean)} With ${(task.question.match(/\d+/g) ?? []).slice(0, 2).join(" and ")} in mind.`,
        `${pick(clean)} Use ${Math.floor(random() * 90) + 10} and ${Math.floor(random() * 90) + 10} as bounds.`,
        pick(clean),
        "",
      ];
      proposals.push({ ...proposal(pick(variants), index), ...(index % 40 === 0 ? { op: "delete" } : {}) });
    }
    const index = createLeakageIndex(leakageFingerprintsOf({ tasks: pool }));
    const { kept, refused } = checkLeakage(proposals, index);
    const reasons = new Map(refused.map((finding) => [finding.proposal.proposalId, finding.reason]));
    const expected = plainScan(proposals, pool);
    expect(proposals.map((p) => [p.proposalId, reasons.get(p.proposalId)])).toEqual(expected);
    expect(kept.length + refused.length).toBe(proposals.length);
    expect(reasons.get("p999")).toBe('contains the answer of task web-2 ("Kiosk stand")');
    // The sample exercises every kind of refusal and keeps some lessons.
    const kinds = new Set(expected.map(([, reason]) => reason?.split(" ").slice(0, 2).join(" ")));
    expect(kinds).toEqual(new Set([undefined, "contains the", "copies constants", "copies task"]));
  });
});
