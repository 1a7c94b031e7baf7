import { describe, expect, it } from "vitest";
import { contrastCode, genericDifference, suspectCode } from "./code-contrast.js";
import { codeView } from "./python-idioms.js";
import { abstractNumbers, keyLines, lineShape } from "./python-source.js";

const view = (code: string, printed: string | null = null) => codeView(keyLines(code), printed);
const ids = (hits: { idiom: { id: string } }[]) => hits.map((hit) => hit.idiom.id);

// Pairs of (losing, winning) programs written for these tests, each with the problem it answers.
const pairs: { id: string; problem: string; loser: string; winner: string }[] = [
  {
    id: "inclusive-range",
    problem: "How many numbers from 5 to 50, inclusive, are multiples of 5?",
    loser: "c = len([v for v in range(5 + 1, 50) if v % 5 == 0])\nprint(c)",
    winner: "c = len([v for v in range(5, 50 + 1) if v % 5 == 0])\nprint(c)",
  },
  {
    id: "inclusive-days",
    problem: "A course runs from March 3 through March 20, both days included. How many days is it?",
    loser: "from datetime import date\nn = (date(2024, 3, 20) - date(2024, 3, 3)).days\nprint(n)",
    winner: "from datetime import date\nn = (date(2024, 3, 20) - date(2024, 3, 3)).days + 1\nprint(n)",
  },
  {
    id: "bounded-parameter",
    problem: "Which of the lines y = k, k in {0, 4, 9}, touch the segment from (0, 1) to (2, 5)?",
    loser: "hits = 0\nfor k in [0, 4, 9]:\n    hits += 1\nprint(hits)",
    winner:
      "hits = 0\nfor k in [0, 4, 9]:\n    t = (k - 1) / 4\n    if 0 <= t <= 1:\n        hits += 1\nprint(hits)",
  },
  {
    id: "real-roots",
    problem: "How many real solutions do x^2 + 1 = 0 and x^2 - 4 = 0 have altogether?",
    loser: "import numpy as np\nn = sum(len(np.roots(c)) for c in [[1, 0, 1], [1, 0, -4]])\nprint(n)",
    winner:
      "n = 0\nfor a, b, c in [(1, 0, 1), (1, 0, -4)]:\n    d = b * b - 4 * a * c\n    if d > 0:\n        n += 2\n    elif d == 0:\n        n += 1\nprint(n)",
  },
  {
    id: "distinct-roots",
    problem: "How many distinct roots does x^2 - 6x + 9 = 0 have?",
    loser: "d = 36 - 36\nn = 0\nif d >= 0:\n    n += 2\nprint(n)",
    winner: "d = 36 - 36\nn = 0\nif d > 0:\n    n += 2\nelif d == 0:\n    n += 1\nprint(n)",
  },
  {
    id: "late-rounding",
    problem: "A fee of $80.35 gets 7% tax, then a 3% service charge. Give the total to the nearest cent.",
    loser: "x = 80.35 * 1.07\nx = round(x, 2)\ny = x * 1.03\nprint(round(y, 2))",
    winner: "x = 80.35 * 1.07\ny = x * 1.03\nprint(round(y, 2))",
  },
  {
    id: "chained-percent",
    problem: "Rent of 1200 rises 10% and then drops 10%. What is it now?",
    loser: "rent = 1200\nprint(rent * (100 + 10 - 10) / 100)",
    winner: "rent = 1200\nrent = rent * 110 / 100\nprint(rent * 90 / 100)",
  },
  {
    id: "floor-modulo",
    problem: "What is -17 mod 5?",
    loser: "import math\nprint(math.fmod(-17, 5))",
    winner: "print(-17 % 5)",
  },
  {
    id: "weighted-mean",
    problem:
      "Team X (4 players) averages 10 points and team Y (6 players) averages 20. What is the overall average?",
    loser: "avg = [10, 20]\nprint(sum(avg) / len(avg))",
    winner: "n = [4, 6]\navg = [10, 20]\nprint(sum(a * b for a, b in zip(n, avg)) / sum(n))",
  },
  {
    id: "unordered-choice",
    problem: "In how many ways can a committee of 3 be chosen from 9 people?",
    loser: "import math\nprint(math.perm(9, 3))",
    winner: "import math\nprint(math.comb(9, 3))",
  },
  {
    id: "draws-without-replacement",
    problem: "Two socks are drawn without replacement from 5 red and 3 blue. Probability both are red?",
    loser: "from fractions import Fraction\np = Fraction(5, 8) ** 2\nprint(p)",
    winner: "from fractions import Fraction\np = Fraction(5, 8) * Fraction(5 - 1, 8 - 1)\nprint(p)",
  },
];

describe("the critic's Python idioms", () => {
  for (const pair of pairs) {
    it(`tells ${pair.id} apart in a losing and a winning program`, () => {
      const contrast = contrastCode(view(pair.loser), view(pair.winner), pair.problem);
      expect(ids(contrast.hits)).toContain(pair.id);
      expect(contrast.generic).toBeNull();
      // The winning program compared with itself shows nothing.
      expect(contrastCode(view(pair.winner), view(pair.winner), pair.problem).hits).toEqual([]);
    });
  }

  it("flags suspicious idioms of a single program from the problem's wording", () => {
    const flagged = pairs.filter((pair) =>
      ids(suspectCode(view(pair.loser, "-2"), pair.problem)).includes(pair.id),
    );
    expect(flagged.length).toBeGreaterThanOrEqual(pairs.length - 2);
    for (const pair of pairs)
      expect(ids(suspectCode(view(pair.winner, "3"), pair.problem))).not.toContain(pair.id);
  });

  it("falls back on the differing lines, numbers replaced by letters, when it knows no idiom", () => {
    const loser = view("scores = [80, 90]\nprint(sum(scores) / 3)");
    const winner = view("scores = [80, 90]\nprint(sum(scores) / 2)");
    expect(genericDifference(loser, winner)).toEqual({
      loser: "print(sum(scores) / a)",
      winner: "print(sum(scores) / 2)",
    });
    const long = view("value = compute_everything(alpha_parameter, beta_parameter, 17) + offset_value * 3");
    const fixed = view("value = compute_everything(alpha_parameter, beta_parameter, 17) - offset_value * 3");
    const diff = genericDifference(long, fixed)!;
    expect(diff.loser!.length).toBeLessThan(40);
    expect(diff.loser).toContain("+");
    expect(diff.winner).toContain("-");
  });

  it("ignores comments, imports and renamed variables", () => {
    expect(keyLines("import math\n# say hi\nx = 1  # one\n\nprint(x)")).toEqual(["x = 1", "print(x)"]);
    expect(lineShape("total = sum(a)")).toBe(lineShape("count = sum(b)"));
    expect(abstractNumbers("range(14 + 1, 91)")).toBe("range(a + 1, b)");
  });
});
