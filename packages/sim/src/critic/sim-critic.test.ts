import { describe, expect, it } from "vitest";
import { quietNoise, type SimNoise } from "../behaviour.js";
import { wordCount } from "../text/experience-lines.js";
import {
  advantagePrompt,
  evenAttempt,
  evenQuestion,
  fetched,
  fleetQuestion,
  fleetResults,
  type HandTrajectory,
  newFleetPage,
  oldFleetPage,
  ran,
  renderCriticStyle,
  renderPlainStyle,
  searched,
  summaryPrompt,
} from "./critic-fixtures.test-support.js";
import { createSimCritic } from "./sim-critic.js";

const critic = (noise: SimNoise = quietNoise, seed = 1) => createSimCritic({ seed, noise });
const noisy = (rates: Partial<SimNoise["critic"]>): SimNoise => ({
  ...quietNoise,
  critic: { ...quietNoise.critic, ...rates },
});

function summarize(t: HandTrajectory, answer: string, truth: string, seed = 1): string {
  const evaluation = answer === truth ? "correct" : "wrong";
  return critic(quietNoise, seed).summarize(summaryPrompt(renderCriticStyle(t, answer), evaluation, truth));
}

const proseVariants = [
  "Approach: count only the values strictly between the two bounds, excluding the endpoints.",
  "I will include both ends, as the question says inclusive.",
  "Let me just compute it.",
  "",
];

describe("stage 1: a summary from what the trajectory shows", () => {
  it("finds the error in the code whatever the prose says (reworded, misleading or omitted)", () => {
    for (const prose of proseVariants) {
      const summary = summarize(evenAttempt(false, prose), "13", "15");
      const lines = summary.split("\n");
      expect(lines.every((line, i) => line.startsWith(`Step ${i + 1}: `))).toBe(true);
      expect(summary).toContain(
        "Ran code: total = 0; for k in range(12 + 1, 40):; if k % 2 == 0:; total += 1; print(total) -> printed 13",
      );
      expect(summary).toMatch(/ERROR - `range\(12 \+ 1, 40\)` leaves out both bounds/);
      expect(summary).toContain("the ground truth is 15");
      expect(summary).not.toMatch(/strictly|inclusive, as the question/);
    }
  });

  it("reads both renderings to the same summary", () => {
    const attempt = evenAttempt(false, "Counting.", ["G1"]);
    const plain = critic().summarize(summaryPrompt(renderPlainStyle(attempt), "wrong", "15"));
    expect(plain).toBe(summarize(attempt, "13", "15"));
    expect(plain).toContain("citing [G1]");
  });

  it("marks no error in a correct attempt, and an unexplained wrong answer as such", () => {
    const good = summarize(evenAttempt(true, "Counting."), "15", "15");
    expect(good).not.toContain("ERROR");
    expect(good).toContain("it matches the ground truth 15");
    const opaque: HandTrajectory = {
      question: "What is the answer?",
      turns: [{ tools: [ran("print(41)", "41\n")] }, { text: "\\boxed{41}" }],
    };
    expect(summarize(opaque, "41", "42")).toMatch(
      /ERROR - gave the final answer 41, but the ground truth is 42; the steps do not show the cause/,
    );
  });

  it("records web steps: results with dates, pages opened, where the value came from", () => {
    const attempt: HandTrajectory = {
      question: fleetQuestion,
      turns: [
        { tools: [searched("Velmora Transit buses", fleetResults)] },
        { tools: [fetched("http://news.harbourpost.example/2016/velmora-fleet", oldFleetPage)] },
        { text: "\\boxed{410}" },
      ],
    };
    const summary = summarize(attempt, "410", "532");
    expect(summary).toContain(
      'Searched the web for "Velmora Transit buses"; results: 1) news.harbourpost.example/2016/velmora-fleet [2016-05-02]; 2) www.velmora-transit.example/fleet-2024 [2024-11-20]',
    );
    expect(summary).toContain("Opened news.harbourpost.example/2016/velmora-fleet [published 2016-05-02].");
    expect(summary).toContain(
      "Took the value 410 from news.harbourpost.example/2016/velmora-fleet [published 2016-05-02].",
    );
    expect(summary).toMatch(
      /ERROR - used a source dated 2016-05-02 although the search results listed one dated 2024-11-20/,
    );
  });
});

function group(
  attempts: { t: HandTrajectory; answer: string }[],
  truth: string,
  question: string,
  experiences: string[] = [],
  seed = 1,
) {
  const summaries = attempts.map(({ t, answer }) => ({
    reward: answer === truth ? 1 : 0,
    summary: summarize(t, answer, truth, seed),
  }));
  return advantagePrompt(question, summaries, truth, experiences);
}

const evenGroup = (experiences: string[] = [], cite: string[] = []) =>
  group(
    [
      { t: evenAttempt(true, "Counting."), answer: "15" },
      { t: evenAttempt(false, "Counting.", cite), answer: "13" },
      { t: evenAttempt(false, "I include the ends.", cite), answer: "13" },
    ],
    "15",
    evenQuestion,
    experiences,
  );

describe("stage 2: lessons from the contrast within a group", () => {
  it("teaches the winning idiom, naming the situation first", () => {
    const { operations } = critic().advantage(evenGroup());
    expect(operations).toHaveLength(1);
    const [op] = operations;
    expect(op).toMatchObject({ option: "add" });
    expect(op!.experience).toMatch(/^(When|For|If|Whenever|In tasks like|While|Counting|Tallying)\b/);
    expect(op!.experience).toMatch(/range\(lo, hi \+ 1\)|both bounds|bounds are both|two bounds/);
    expect(wordCount(op!.experience!)).toBeLessThanOrEqual(32);
    expect(op!.reason).toContain("range(12, 40 + 1)");
    expect(op!.reason).toContain("attempts 2, 3");
  });

  it("words the same lesson differently across groups and seeds, deterministically", () => {
    const texts = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const prompt = evenGroup();
      const once = critic(quietNoise, seed).advantage(prompt);
      expect(critic(quietNoise, seed).advantage(prompt)).toEqual(once);
      texts.add(once.operations[0]!.experience!);
    }
    expect(texts.size).toBeGreaterThanOrEqual(6);
  });

  it("proposes nothing for a homogeneous group, and nothing for a lone success", () => {
    const failures = group(
      [
        { t: evenAttempt(false, "a"), answer: "13" },
        { t: evenAttempt(false, "b"), answer: "13" },
      ],
      "15",
      evenQuestion,
    );
    expect(critic().advantage(failures).operations).toEqual([]);
    const success = group([{ t: evenAttempt(true, "a"), answer: "15" }], "15", evenQuestion);
    expect(critic().advantage(success).operations).toEqual([]);
  });

  it("reflects on a single failed attempt (G = 1): a lesson from a suspicious idiom, else a vague one", () => {
    const single = group(
      [{ t: evenAttempt(false, "Counting.") }].map((a) => ({ ...a, answer: "13" })),
      "15",
      evenQuestion,
    );
    const traced = critic().trace(single);
    expect(traced.single).toBe(true);
    expect(traced.operations).toHaveLength(1);
    expect(traced.operations[0]!.origin).toBe("evidence");
    expect(traced.operations[0]!.operation.reason).toMatch(/attempt 1 wrote `range\(12 \+ 1, 40\)`/);
    const opaque: HandTrajectory = {
      question: "What is the answer?",
      turns: [{ tools: [ran("print(41)", "41\n")] }, { text: "\\boxed{41}" }],
    };
    const vague = critic().trace(group([{ t: opaque, answer: "41" }], "42", "What is the answer?"));
    expect(vague.operations.map((t) => t.origin)).toEqual(["fallback"]);
  });

  it("at G = 1 noise is scaled up: more vague, misguided and misattributed lessons than in groups", () => {
    const rates = noisy({ vague: 0.1, contradictory: 0.1, wrongAttribution: 0.1 });
    const single = group([{ t: evenAttempt(false, "x"), answer: "13" }], "15", evenQuestion);
    let singleNoise = 0;
    let groupNoise = 0;
    for (let seed = 0; seed < 200; seed++) {
      const s = critic(rates, seed).trace(single).operations;
      const g = critic(rates, seed).trace(evenGroup()).operations;
      if (s.some((t) => t.origin !== "evidence")) singleNoise++;
      if (g.some((t) => t.origin !== "evidence")) groupNoise++;
    }
    expect(singleNoise).toBeGreaterThan(groupNoise * 1.7);
  });

  it("uses a generic contrast of the differing lines when it knows no idiom", () => {
    const question =
      "Team Alpha has 12 members averaging 80 and team Beta 30 members averaging 90. Overall mean?";
    const lose: HandTrajectory = {
      question,
      turns: [{ tools: [ran("a = 80\nb = 90\nprint((a + b) / 2)", "85.0\n")] }, { text: "\\boxed{85}" }],
    };
    const win: HandTrajectory = {
      question,
      turns: [
        { tools: [ran("a = 80\nb = 90\nprint((12 * a + 30 * b) / 42)", "87.14\n")] },
        { text: "\\boxed{87.14}" },
      ],
    };
    const { operations } = critic().advantage(
      group(
        [
          { t: win, answer: "87.14" },
          { t: lose, answer: "85" },
        ],
        "87.14",
        question,
      ),
    );
    expect(operations).toHaveLength(1);
    expect(operations[0]!.experience).toMatch(/`print\(\(c \* a \+ d \* b\) \/ k\)`|\(c \* a \+ d \* b\)/);
    expect(operations[0]!.experience).toMatch(/\(a \+ b\) \/ 2/);
  });
});

describe("stage 2: code written but not run (direct mode)", () => {
  it("contrasts the scratch code of the final messages like code that ran", () => {
    const question = "What is the remainder of -17 divided by 5?";
    const direct = (code: string, answer: string): HandTrajectory => ({
      question,
      turns: [
        { text: `Working it out:\n\`\`\`python\n${code}\n\`\`\`\nSo the answer is \\boxed{${answer}}.` },
      ],
    });
    const lose = direct("import math\nr = math.fmod(-17, 5)\nprint(r)", "-2");
    const summary = summarize(lose, "-2", "3");
    expect(summary).toContain("Wrote code without running it: r = math.fmod(-17, 5); print(r)");
    expect(summary).toMatch(/ERROR - `r = math.fmod\(-17, 5\)` keeps the sign/);
    const { findings, operations } = critic().trace(
      group(
        [
          { t: direct("r = -17 % 5\nprint(r)", "3"), answer: "3" },
          { t: lose, answer: "-2" },
        ],
        "3",
        question,
      ),
    );
    expect(findings[0]!.key).toBe("floor-modulo");
    expect(operations[0]!.operation.experience).toMatch(/%/);
  });
});

describe("stage 2: web contrasts", () => {
  const page = (url: string, text: string, answer: string): HandTrajectory => ({
    question: fleetQuestion,
    turns: [
      { tools: [searched("Velmora Transit buses", fleetResults)] },
      { tools: [fetched(url, text)] },
      { text: `\\boxed{${answer}}` },
    ],
  });
  const snippetOnly: HandTrajectory = {
    question: fleetQuestion,
    turns: [{ tools: [searched("Velmora Transit buses", fleetResults)] }, { text: "\\boxed{395}" }],
  };
  const fresh = page("http://www.velmora-transit.example/fleet-2024", newFleetPage, "532");

  it("an answer read from a snippet without opening a page", () => {
    const { findings, operations } = critic().trace(
      group(
        [
          { t: fresh, answer: "532" },
          { t: snippetOnly, answer: "395" },
        ],
        "532",
        fleetQuestion,
      ),
    );
    expect(findings[0]!.key).toBe("open-source-page");
    expect(operations[0]!.operation.experience).toMatch(/open|fetch|verify|confirm/i);
  });

  it("an older dated page than the winner's", () => {
    const { findings, operations } = critic().trace(
      group(
        [
          { t: fresh, answer: "532" },
          {
            t: page("http://news.harbourpost.example/2016/velmora-fleet", oldFleetPage, "410"),
            answer: "410",
          },
        ],
        "532",
        fleetQuestion,
      ),
    );
    expect(findings[0]!.key).toBe("newest-source");
    expect(operations[0]!.operation.experience).toMatch(/recent|newest|latest/);
  });

  it("the page's unit kept when the question asks another", () => {
    const question = "How long is the Brindle Trail in metres?";
    const trail = "Title: Brindle Trail\n\nThe Brindle Trail is 4.25 km long and climbs 300 m.";
    const attempt = (answer: string): HandTrajectory => ({
      question,
      turns: [
        {
          tools: [
            searched(
              "Brindle Trail length",
              "1. Brindle Trail\n   URL: http://trails.example/brindle\n   A trail guide.",
            ),
          ],
        },
        { tools: [fetched("http://trails.example/brindle", trail)] },
        { text: `\\boxed{${answer}}` },
      ],
    });
    const { findings, operations } = critic().trace(
      group(
        [
          { t: attempt("4250"), answer: "4250" },
          { t: attempt("4.25"), answer: "4.25" },
        ],
        "4250",
        question,
      ),
    );
    expect(findings[0]!.key).toBe("asked-unit");
    expect(operations[0]!.operation.experience).toMatch(/metres/);
    expect(operations[0]!.operation.experience).toMatch(/km|1000|convert/);
  });
});

describe("stage 2: the library in the prompt", () => {
  const harmful =
    "[G3]. When counting between two bounds, leave both bounds out: loop over range(lo + 1, hi).";

  it("modifies or deletes a cited line whose advice led to the error", () => {
    const kinds = new Set<string>();
    for (let seed = 0; seed < 10; seed++) {
      const { operations } = critic(quietNoise, seed).advantage(
        evenGroup([harmful, "[G5]. Read pages fully."], ["G3"]),
      );
      const fix = operations.find((op) => op.experience_id === "G3");
      expect(fix?.option).toMatch(/modify|delete/);
      if (fix?.option === "modify") expect(fix.experience).toMatch(/hi \+ 1|both|two bounds/);
      expect(operations.every((op) => op.experience_id !== "G5")).toBe(true);
      kinds.add(fix!.option);
    }
    expect(kinds).toEqual(new Set(["modify", "delete"]));
  });

  it("does not add a duplicate of a line that already says the lesson", () => {
    const already =
      "[G2]. When counting over an inclusive interval, include both bounds: use range(lo, hi + 1).";
    for (let seed = 0; seed < 10; seed++) {
      const { operations } = critic(quietNoise, seed).advantage(evenGroup([already]));
      expect(operations.filter((op) => op.option === "add")).toEqual([]);
    }
  });

  it("never proposes more than three operations", () => {
    const all = noisy({ vague: 1, duplicate: 1, contradictory: 1, wrongAttribution: 1, wrongId: 1 });
    for (let seed = 0; seed < 20; seed++)
      expect(critic(all, seed).advantage(evenGroup([harmful], ["G3"])).operations.length).toBeLessThanOrEqual(
        3,
      );
  });
});

describe("stage 2: noise at the configured rates", () => {
  it("vague, duplicate, contradictory, wrong attribution and wrong id roughly as configured", () => {
    const rates = { vague: 0.2, duplicate: 0.2, contradictory: 0.2, wrongAttribution: 0.2, wrongId: 0.2 };
    const counts: Record<string, number> = {};
    const runs = 400;
    const prompt = evenGroup(["[G0]. Keep code readable."]);
    for (let seed = 0; seed < runs; seed++) {
      const origins = new Set(
        critic(noisy(rates), seed)
          .trace(prompt)
          .operations.map((t) => t.origin),
      );
      for (const origin of origins) counts[origin] = (counts[origin] ?? 0) + 1;
    }
    for (const kind of ["vague", "duplicate", "contradictory", "wrong-attribution", "wrong-id"]) {
      expect(counts[kind] ?? 0, kind).toBeGreaterThan(runs * 0.1);
      expect(counts[kind] ?? 0, kind).toBeLessThan(runs * 0.3);
    }
  });

  it("contradictory lessons point the wrong way in varied words; wrong ids are not in the library", () => {
    const texts = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const traced = critic(noisy({ contradictory: 1, wrongId: 1 }), seed).trace(
        evenGroup(["[G0]. Keep code readable."]),
      );
      const wrong = traced.operations.find((t) => t.origin === "contradictory")!;
      expect(wrong.operation.experience).toMatch(/lo \+ 1|strictly|leave|skip|out of the count/);
      texts.add(wrong.operation.experience!);
      const unknown = traced.operations.find((t) => t.origin === "wrong-id")!;
      expect(unknown.operation.experience_id).not.toBe("G0");
    }
    expect(texts.size).toBeGreaterThan(5);
  });

  it("an answer leak carries the winning attempt's answer (planted for the curator's leakage check)", () => {
    const traced = critic(noisy({ answerLeak: 1 })).trace(evenGroup());
    const leak = traced.operations.find((t) => t.origin === "answer-leak")!;
    expect(leak.operation).toMatchObject({
      option: "add",
      experience: expect.stringContaining("answer is 15"),
    });
    expect(
      critic(quietNoise)
        .trace(evenGroup())
        .operations.map((t) => t.origin),
    ).not.toContain("answer-leak");
  });

  it("quiet noise gives only evidence-backed operations", () => {
    for (let seed = 0; seed < 50; seed++)
      expect(
        critic(quietNoise, seed)
          .trace(evenGroup())
          .operations.map((t) => t.origin),
      ).toEqual(["evidence"]);
  });
});

describe("stage 2: where a lesson does not apply", () => {
  const withScope = (prompt: string) =>
    prompt.replace(
      "<problem>",
      'Return JSON: {"operations": [{"option": "add", "experience": "...", "when_not": "...", "reason": "..."}]}\n<problem>',
    );

  it("names a neighbouring situation of the task family in when_not, when the prompt asks for one", () => {
    const clauses = new Map<string, number>();
    for (let seed = 0; seed < 20; seed++) {
      const [op] = critic(quietNoise, seed).advantage(withScope(evenGroup())).operations;
      expect(op?.option).toBe("add");
      if (op?.when_not !== undefined) clauses.set(op.when_not, (clauses.get(op.when_not) ?? 0) + 1);
    }
    const written = [...clauses.values()].reduce((a, b) => a + b, 0);
    // Not always (a model names one when it sees one), but most of the time, in the situation's words.
    expect(written).toBeGreaterThanOrEqual(10);
    expect(written).toBeLessThan(20);
    for (const clause of clauses.keys()) {
      expect(clause).not.toMatch(/^(not|when)\b/i);
      expect(wordCount(clause)).toBeLessThanOrEqual(12);
    }
  });

  it("writes no when_not when the prompt does not ask for it", () => {
    for (let seed = 0; seed < 10; seed++) {
      for (const op of critic(quietNoise, seed).advantage(evenGroup()).operations)
        expect(op).not.toHaveProperty("when_not");
    }
  });
});
