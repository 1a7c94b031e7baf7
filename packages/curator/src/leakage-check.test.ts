import type { Proposal } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { checkLeakage } from "./leakage-check.js";

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
