import { describe, expect, it } from "vitest";
import { mathVerifierCases } from "../testing/math-verifier-cases.js";
import { verifyMath } from "./verify-math.js";

describe("verifyMath on the case table", () => {
  it("has at least 150 cases, both equal forms and near-misses", () => {
    expect(mathVerifierCases.length).toBeGreaterThanOrEqual(150);
    expect(mathVerifierCases.filter((c) => c.expected === 0).length).toBeGreaterThanOrEqual(50);
  });

  it.each(mathVerifierCases.map((c) => [c.note, c] as const))("%s", (_note, c) => {
    const verdict = verifyMath(c.gold, c.pred);
    expect({ gold: c.gold, pred: c.pred, reward: verdict.reward, reason: verdict.reason }).toMatchObject({
      reward: c.expected,
    });
  });
});

describe("verifyMath", () => {
  it("reports what it extracted and why", () => {
    expect(verifyMath("17", "so we get $\\boxed{17}$.")).toMatchObject({
      reward: 1,
      grade: "pass",
      extracted: "17",
    });
    const miss = verifyMath("17", "The answer is 18.");
    expect(miss).toMatchObject({ reward: 0, grade: "fail", extracted: "18" });
    expect(miss.reason).toContain("answer-phrase");
  });

  it("fails a missing or null answer without throwing", () => {
    expect(verifyMath("3", null)).toMatchObject({
      reward: 0,
      extracted: null,
      reason: "no final answer found",
    });
    expect(verifyMath("3", "")).toMatchObject({ reward: 0, extracted: null });
  });

  it("accepts a boxed gold answer", () => {
    expect(verifyMath("\\boxed{\\frac{1}{2}}", "0.5").reward).toBe(1);
  });

  it("gives partial credit for sets only when asked", () => {
    expect(verifyMath("\\{2, 3\\}", "\\{2\\}").reward).toBe(0);
    expect(verifyMath("\\{2, 3\\}", "\\{2\\}", { partialCredit: true })).toMatchObject({
      reward: 0.5,
      grade: "partial",
    });
    expect(verifyMath("1, 2, 3, 4", "4, 1", { partialCredit: true }).reward).toBe(0.5);
  });

  it("decides large inputs quickly enough to stay usable in bulk", () => {
    const long = `${"Let me think about this. ".repeat(5000)} The answer is \\boxed{42}.`;
    expect(verifyMath("42", long)).toMatchObject({ reward: 1, extracted: "42" });
  });
});

describe("verifyMath on garbage", () => {
  // Seeded: the same 3000 pairs every run. Token soup of LaTeX pieces models emit, in any order.
  const tokens = [
    "\\frac",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\\sqrt",
    "^",
    "_",
    "x",
    "2",
    "3.5",
    "-",
    "+",
    ",",
    "=",
    "<",
  ];
  tokens.push(
    "\\le",
    "\\pm",
    "\\infty",
    "\\cup",
    "\\{",
    "\\}",
    "|",
    "!",
    "\\pi",
    "e",
    "i",
    "\\text{cm}",
    "%",
    "^\\circ",
  );
  tokens.push(
    "\\boxed{",
    "$",
    " or ",
    "\\begin{pmatrix}",
    "\\\\",
    "\\end{pmatrix}",
    "\\log_",
    "\\sin",
    "1,000",
    "\\left(",
  );
  tokens.push("\\right)", ".", "\\cdot", "\\binom", "A", "(C)", "\\", "&", "~");

  it("never throws and always rewards within [0, 1]", () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const soup = () =>
      Array.from(
        { length: 1 + Math.floor(random() * 14) },
        () => tokens[Math.floor(random() * tokens.length)],
      ).join("");
    for (let n = 0; n < 3000; n++) {
      const gold = soup();
      const pred = soup();
      const verdict = verifyMath(gold, pred);
      expect(verdict.reward >= 0 && verdict.reward <= 1, `${gold} | ${pred}`).toBe(true);
    }
  });

  it("survives absurd nesting and huge numbers", () => {
    const inputs = [
      `\\boxed{${"\\sqrt{".repeat(300)}2${"}".repeat(300)}}`,
      `\\boxed{${"2^{".repeat(490)}2${"}".repeat(490)}}`,
      "\\frac{".repeat(3000) + "1" + "}{2}".repeat(3000),
      "\\boxed{9^9^9^9^9}",
      "\\boxed{1000000!}",
    ];
    for (const input of inputs) expect(() => verifyMath("1", input)).not.toThrow();
  });
});
