// The agent actor with a plain-function agent: each attempt gets the step's selection with its exposure arm (the
// same as tfgrpo's actor would show it) and its seed; what the function returns becomes the trajectory; the module's
// reward scores it. A LangChain agent built without the middleware is caught; a bad module is one line.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import {
  type AgentAttempt,
  currentAgentAttempt,
  isShownToAttempt,
  servedLibrarySnapshot,
} from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore, type Store } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentActor } from "./create-agent-actor.js";
import type { AgentFunctionInput } from "./function-agent-run.js";
import { loadAgentModule } from "./load-agent-module.js";

let store: Store;
let temporary: TemporaryDirectory;
beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-agent-actor-");
  store = await createStore(":memory:");
  await store.applyOperations(
    "math",
    [
      { op: "add", text: "Check the answer by substituting it back.", reason: "r", status: "active" },
      { op: "add", text: "Count small cases by hand before generalising.", reason: "r", status: "candidate" },
    ],
    { parent: null, state: "committed" },
  );
});
afterAll(async () => {
  await store.close();
  await temporary[Symbol.asyncDispose]();
});

const library = async (domain: string, version: number) =>
  servedLibrarySnapshot(await store.getVersion(domain, version));
const task = { id: "t1", domain: "math", question: "How many integers from 1 to 10 are even?", answer: "5" };
const exposure = { attempts: 4, seed: 99, activeShare: 0 };
const request = (attempt: number) => ({
  runId: "run",
  groupId: "g1",
  attempt,
  task,
  library: { domain: "math", version: 1 },
  exposure,
});

describe("createAgentActor", () => {
  it("runs a function agent per attempt with its exposure arm and seed, and records what it returned", async () => {
    const seen: AgentFunctionInput[] = [];
    const actor = createAgentActor({
      library,
      module: {
        file: "team-agent.mjs",
        agent: {
          kind: "function",
          agent: async (input: AgentFunctionInput) => {
            seen.push(input);
            return {
              text: `Using [G0] I count them. \\boxed{5}`,
              toolCalls: [{ name: "calculator", input: { x: 1 }, output: "5" }],
            };
          },
        },
        reward: (_task, run) => run.finalAnswer === "5",
      },
    });
    const trajectories = [];
    for (let attempt = 0; attempt < 4; attempt++) trajectories.push(await actor.rollout(request(attempt)));
    for (const [attempt, trajectory] of trajectories.entries()) {
      // Neither entry is settled: both are varied, each shown to its balanced half of the group.
      const shown = ["G0", "G1"].filter((id) => isShownToAttempt(exposure, id, attempt));
      expect(trajectory.experiencesShown).toEqual(shown);
      expect(trajectory.experiencesWithheld ?? []).toEqual(["G0", "G1"].filter((id) => !shown.includes(id)));
      expect(seen[attempt]!.shownIds).toEqual(shown);
      expect(seen[attempt]!.task).toEqual({ id: "t1", question: task.question, domain: "math" });
      expect(seen[attempt]!.experiences.includes("[G0]. Check the answer by substituting it back.")).toBe(
        shown.includes("G0"),
      );
      expect(seen[attempt]!.experiences.includes("[G1].")).toBe(shown.includes("G1"));
      expect(trajectory).toMatchObject({
        finalAnswer: "5",
        reward: 1,
        stopReason: "answered",
        experiencesCited: shown.includes("G0") ? ["G0"] : [],
        model: "agent:function",
      });
      expect(trajectory.toolCalls).toMatchObject([{ name: "calculator", output: "5" }]);
    }
    // Both arms of each entry occur, and the attempts differ by seed as tfgrpo's own actor's do.
    for (const id of ["G0", "G1"]) {
      expect(new Set(trajectories.map((t) => t.experiencesShown.includes(id)))).toEqual(
        new Set([true, false]),
      );
    }
    expect(new Set(seen.map((input) => input.seed)).size).toBe(4);
  });

  it("fails the attempt, naming the module, when a LangChain agent never called the middleware", async () => {
    const actor = createAgentActor({
      library,
      module: {
        file: "no-middleware.mjs",
        agent: {
          kind: "langchain",
          agent: {
            invoke: async () => ({ messages: [] }),
            stream: () => undefined,
          },
        },
      },
    });
    const trajectory = await actor.rollout(request(0));
    expect(trajectory.stopReason).toBe("error");
    expect(trajectory.error).toMatch(
      /no-middleware\.mjs: the agent never called tfgrpo's experienceMiddleware/,
    );
  });

  it("makes the attempt visible to a middleware inside the agent", async () => {
    let attempt: AgentAttempt | undefined;
    const actor = createAgentActor({
      library,
      module: {
        file: "inner.mjs",
        agent: {
          kind: "function",
          agent: async () => {
            attempt = currentAgentAttempt();
            return "\\boxed{4}";
          },
        },
      },
    });
    const trajectory = await actor.rollout(request(1));
    expect(attempt).toMatchObject({ taskId: "t1", attempt: 1, shownIds: trajectory.experiencesShown });
    expect(trajectory.reward).toBeUndefined();
  });
});

describe("loadAgentModule", () => {
  it("refuses a module that exports no agent of a known shape, in one line naming the file and the shapes", async () => {
    const file = path.join(temporary.path, "not-an-agent.mjs");
    await writeFile(file, "export const agent = { name: 'not an agent' };\n");
    const error = await loadAgentModule(file).catch((caught: Error) => caught);
    expect((error as { code?: string }).code).toBe("invalid_input");
    const message = (error as Error).message;
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toContain(`agent module ${file} exports no agent of a known shape`);
    expect(message).toMatch(/createAgent agent.*AI SDK agent.*function/);
  });

  it("takes a default-exported function and a reward export", async () => {
    const file = path.join(temporary.path, "function-agent.mjs");
    await writeFile(file, "export default async () => '\\\\boxed{1}';\nexport const reward = () => 1;\n");
    const module = await loadAgentModule(file);
    expect(module.agent.kind).toBe("function");
    expect(typeof module.reward).toBe("function");
  });

  it("names the file of a module that does not load", async () => {
    const file = path.join(temporary.path, "broken.mjs");
    await writeFile(file, "export const agent = ;\n");
    await expect(loadAgentModule(file)).rejects.toThrow(/agent module .*broken\.mjs failed to load/);
    await expect(loadAgentModule(path.join(temporary.path, "absent.mjs"))).rejects.toThrow(/no such file/);
  });
});
