import { readRealLibrary } from "@tfgrpo/protocol/testing";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimServer, type SimServer } from "./server.js";
import { createSuite } from "./suites/create-suite.js";
import { type EpisodeExperience, renderTrajectoryForCritic, runSimEpisode } from "./testing/index.js";

// The acceptance test of the sim world: the simulated policy, run through real prompts with real Python, gets
// clearly better on held-out tasks when its prompt holds lessons that address its pitfalls, and not otherwise.

let server: SimServer;
let client: OpenAI;
const pythonCache = new Map<string, string>();

function realLibrary(name: "math" | "web"): EpisodeExperience[] {
  return Object.entries(readRealLibrary(name)).map(([id, text]) => ({ id, text }));
}

beforeAll(async () => {
  server = await createSimServer({ seed: 31 });
  client = new OpenAI({ baseURL: server.url, apiKey: "sim", maxRetries: 0 });
});
afterAll(() => server.close());

/** Runs jobs with at most `limit` in flight (episodes mostly wait on HTTP and Python processes). */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function successRate(
  domain: "math" | "web",
  size: number,
  experiences: readonly EpisodeExperience[],
): Promise<number> {
  // In-family tasks only: the hand-written lessons address the families training draws from, not the held-out ones.
  const tasks = createSuite({ domain, seed: 31, size: Math.ceil(size * 1.3), split: "test" })
    .filter((task) => task.meta?.familySplit !== "out-of-family")
    .slice(0, size);
  const runs = tasks.flatMap((task) => [1, 2].map((seed) => ({ task, seed })));
  const results = await mapLimit(runs, 8, ({ task, seed }) =>
    runSimEpisode({
      client,
      question: task.question,
      answer: task.answer!,
      experiences,
      seed,
      corpusUrl: server.corpusUrl,
      pythonCache,
    }),
  );
  return results.filter((r) => r.correct).length / results.length;
}

// Written for this test, not taken from the sim's own lesson bank: the policy must recognise them by meaning.
const handWritten: Record<"math" | "web", EpisodeExperience[]> = {
  math: [
    {
      id: "G0",
      text: "Inclusive intervals and date spans: tally both ends too; the first and last numbers are part of the count.",
    },
    {
      id: "G1",
      text: "When a line meets a segment, check that the intersection point lies within the segment, not on its extension.",
    },
    {
      id: "G2",
      text: "Before counting real solutions of a quadratic, compute the discriminant; a negative one means no real roots.",
    },
    { id: "G3", text: "Distinct roots: a repeated root is counted once." },
    {
      id: "G4",
      text: "Money over several steps: keep exact fractions for intermediate prices and round only at the end.",
    },
    {
      id: "G5",
      text: "Successive percentage changes compound: apply each change to the current, updated price.",
    },
    { id: "G6", text: "Negative numbers mod m: report the least nonnegative remainder, adding m if needed." },
    {
      id: "G7",
      text: "A combined average must be weighted by group sizes: total sum divided by total count.",
    },
  ],
  web: [
    {
      id: "G0",
      text: "Search snippets can be wrong: open the official page and verify the number before answering.",
    },
    {
      id: "G1",
      text: "When pages disagree, compare their publication dates and use the most recent source.",
    },
    { id: "G2", text: "Convert the page's value into the unit the question asks for." },
  ],
};

describe("the learning signal of the sim world", () => {
  for (const [domain, size, unrelated] of [
    ["math", 14, realLibrary("web")],
    ["web", 21, realLibrary("math")],
  ] as const) {
    it(`${domain}: addressing lessons raise held-out success, unrelated ones do not, contrary ones lower it`, async () => {
      const none = await successRate(domain, size, []);
      const addressing = await successRate(domain, size, handWritten[domain]);
      const unrelatedRate = await successRate(domain, size, unrelated);
      const contrary = await successRate(domain, size, [
        {
          id: "G0",
          text:
            domain === "math"
              ? "When counting numbers between two bounds, always exclude the endpoints."
              : "Trust the search snippet; there is no need to open pages.",
        },
      ]);
      expect(none).toBeLessThan(0.4);
      expect(addressing).toBeGreaterThan(0.65);
      expect(addressing - none).toBeGreaterThan(0.4);
      expect(Math.abs(unrelatedRate - none)).toBeLessThanOrEqual(0.1);
      expect(contrary).toBeLessThanOrEqual(none);
    });
  }

  it("math: a library learned through the critic and curator prompts makes the held-out policy clearly better", async () => {
    const train = createSuite({ domain: "math", seed: 31, size: 21, split: "train" });
    let library: EpisodeExperience[] = [];
    let nextId = 0;
    for (let epoch = 0; epoch < 2; epoch++) {
      const perTask = await mapLimit(train, 6, async (task) => {
        const attempts = await Promise.all(
          [0, 1, 2, 3].map((attempt) =>
            runSimEpisode({
              client,
              question: task.question,
              answer: task.answer!,
              experiences: library,
              seed: epoch * 100 + attempt,
              pythonCache,
            }),
          ),
        );
        const rewards = attempts.map((a) => (a.correct ? 1 : 0));
        if (new Set(rewards).size < 2) return [];
        const summaries = await Promise.all(
          attempts.map(async (attempt, i) => {
            const prompt = `Summarize the trajectory step by step.\n<trajectory>\n${renderTrajectoryForCritic(attempt.messages)}\n</trajectory>\n<evaluation>${rewards[i] ? "correct" : "wrong"}</evaluation>\n<groundtruth>${task.answer}</groundtruth>`;
            const out = await client.chat.completions.create({
              model: "sim-critic",
              messages: [{ role: "user", content: prompt }],
            });
            return out.choices[0]!.message.content!;
          }),
        );
        const advantage = [
          "Review these problem-solving attempts and extract generalizable experiences (at most 3 operations).",
          `<problem>${task.question}</problem>`,
          "<trajectories>",
          ...summaries.map(
            (summary, i) => `<attempt index="${i + 1}" reward="${rewards[i]}">\n${summary}\n</attempt>`,
          ),
          "</trajectories>",
          `<groundtruth>${task.answer}</groundtruth>`,
          "<experience>",
          ...library.map((e) => `[${e.id}]. ${e.text}`),
          "</experience>",
        ].join("\n");
        const out = await client.chat.completions.create({
          model: "sim-critic",
          messages: [{ role: "user", content: advantage }],
          response_format: { type: "json_object" },
        });
        return (JSON.parse(out.choices[0]!.message.content!) as { operations: Record<string, unknown>[] })
          .operations;
      });
      const proposals = perTask.flat();
      const consolidation = [
        "Consolidate the suggested updates into final experience revisions, each at most 32 words.",
        "<experience>",
        ...library.map((e) => `[${e.id}]. ${e.text}`),
        "</experience>",
        "<suggested_updates>",
        JSON.stringify(proposals.map((p, i) => ({ temp_id: `P${i + 1}`, ...p }))),
        "</suggested_updates>",
      ].join("\n");
      const out = await client.chat.completions.create({
        model: "sim-curator",
        messages: [{ role: "user", content: consolidation }],
        response_format: { type: "json_object" },
      });
      const { operations } = JSON.parse(out.choices[0]!.message.content!) as {
        operations: {
          option: string;
          experience?: string;
          experience_id?: string;
          experience_ids?: string[];
        }[];
      };
      for (const op of operations) {
        if (op.option === "add") library.push({ id: `G${nextId++}`, text: op.experience! });
        else if (op.option === "modify")
          library = library.map((e) => (e.id === op.experience_id ? { ...e, text: op.experience! } : e));
        else if (op.option === "delete") library = library.filter((e) => e.id !== op.experience_id);
        else if (op.option === "merge") {
          library = library.filter((e) => !op.experience_ids!.includes(e.id));
          library.push({ id: `G${nextId++}`, text: op.experience! });
        }
      }
    }
    expect(library.length).toBeGreaterThanOrEqual(3);
    expect(library.length).toBeLessThanOrEqual(12);
    for (const entry of library) expect(entry.text.split(/\s+/).length).toBeLessThanOrEqual(32);
    const none = await successRate("math", 14, []);
    const learned = await successRate("math", 14, library);
    expect(learned - none, JSON.stringify(library, null, 1)).toBeGreaterThan(0.3);
  });
});
