// `eval --agent` of the τ²-retail example agent (examples/agents/tau2-retail-agent.mjs, as it is) on imported τ²
// retail tasks: every attempt a conversation with tfgrpo's `user` role (SIMULATED, over HTTP), the agent built per
// attempt with the store's tools from that attempt's own MCP session (the retail server over Streamable HTTP), the
// whole conversation in the trajectory, and the τ² reward computed by the imported reward module on the final state.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Task, Trajectory } from "@tfgrpo/protocol";
import { createStore } from "@tfgrpo/store";
import { createRetailTrajectoryReward } from "@tfgrpo/tau2-retail";
import { expect, it } from "vitest";
import { evaluate } from "../commands/eval.js";
import { captureCommandOutput } from "../testing/capture-command-output.js";
import { importedRetail } from "../testing/imported-retail.js";
import { repositoryRoot } from "../testing/spawn-cli.js";

const agent = path.join(repositoryRoot, "examples/agents/tau2-retail-agent.mjs");

it("a team's createAgent talks with the user role turn by turn and is scored on its attempt's final database", async () => {
  await using retail = await importedRetail({ tasks: 3, prefix: "tfgrpo-agent-conversation-" });
  const { dir, db, server, tasks } = retail;
  const lines = (await readFile(tasks, "utf8")).split("\n").filter(Boolean);
  const runId = "eval-agent-conversation";
  const evaluation = await evaluate(
    {
      agent,
      domain: "tau2-retail",
      library: ["none"],
      data: tasks,
      settings: dir,
      k: 2,
      concurrency: 6,
      seed: 3,
      temperature: 0.3,
      mode: "tools",
      localRoles: "actor,critic,curator",
      sim: true,
      db: path.join(dir, "eval.db"),
      runId,
      trace: false,
    },
    captureCommandOutput().output,
  );
  const row = evaluation!.rows[0]!;
  expect(row.infrastructureFailures ?? 0).toBe(0);
  expect(row.passHatK?.map((entry) => entry.k)).toEqual([1, 2]);
  // Every attempt's session was closed with it.
  expect(server.sessions).toBe(0);

  const store = await createStore(path.join(dir, "eval.db"));
  let trajectories: Trajectory[];
  try {
    trajectories = await store.listTrajectories({ runId });
  } finally {
    await store.close();
  }
  expect(trajectories).toHaveLength(6);
  const byId = new Map(lines.map((line) => JSON.parse(line) as Task).map((task) => [task.id, task]));
  const rule = createRetailTrajectoryReward(db);
  for (const trajectory of trajectories) {
    expect(trajectory.model).toBe("agent:langchain");
    const [system, greeting, opening, ...rest] = trajectory.messages;
    expect(system!.role).toBe("system");
    expect(greeting).toMatchObject({ role: "assistant", content: "Hi! How can I help you today?" });
    // The user role speaks first: the customer's reason for calling, never the task's generic question.
    expect(opening!.role).toBe("user");
    expect(opening!.content).not.toBe(byId.get(trajectory.taskId)!.question);
    // Turn by turn: the user answered the agent several times, the agent called the store's tools in between.
    expect(rest.filter((message) => message.role === "user").length).toBeGreaterThanOrEqual(2);
    expect(trajectory.toolCalls.length).toBeGreaterThan(2);
    // The first call authenticates the customer the user described (by email, or name and zip).
    expect(trajectory.toolCalls[0]!.name).toMatch(
      /^(find_user_id_by_email|find_user_id_by_name_zip|get_user_details)$/,
    );
    if (trajectory.stopReason === "answered") expect(rest.at(-1)!.role).toBe("user");
    // The reward is τ²'s rule on this attempt's final database (from its recorded environment).
    expect(trajectory.environment).toBeDefined();
    expect(trajectory.reward).toBe(
      rule(byId.get(trajectory.taskId)!, trajectory.finalAnswer, trajectory).reward,
    );
  }
  // Some attempts changed their database (a write reached the state the reward read).
  expect(trajectories.some((trajectory) => trajectory.environment!.diff.length > 0)).toBe(true);
}, 240_000);
