import { describe, expect, it } from "vitest";
import { renderTraceTree } from "./render-trace-tree.js";
import type { TraceLine } from "./trace-line.js";

let clock = 0;
function span(
  id: string,
  parent: string | null,
  name: string,
  attributes: Record<string, unknown> = {},
): TraceLine {
  clock += 1;
  return {
    traceId: "t".repeat(32),
    spanId: id,
    parentSpanId: parent,
    name,
    start: clock,
    durationMs: 1500,
    status: "unset",
    service: "tfgrpo-runner",
    attributes,
  };
}

const chat = (id: string, parent: string, costUsd: number) =>
  span(id, parent, "chat m", {
    "gen_ai.operation.name": "chat",
    "gen_ai.usage.input_tokens": 100,
    "gen_ai.usage.output_tokens": 10,
    "tfgrpo.cost_usd": costUsd,
  });

function trace(): TraceLine[] {
  const spans = [span("s1", null, "learn step 1", { "tfgrpo.step": 1 }), span("n1", "s1", "rollout")];
  for (let i = 0; i < 7; i++) {
    spans.push(span(`r${i}`, "n1", "rollout", { "tfgrpo.rollout_id": `g/${i}`, "tfgrpo.cost_usd": 99 }));
    spans.push(chat(`c${i}`, `r${i}`, 0.001));
  }
  spans.push(span("s2", null, "learn step 2", { "tfgrpo.step": 2 }), chat("c9", "s2", 0.5));
  return spans;
}

describe("renderTraceTree", () => {
  it("indents children, sums only model-call costs (a rollout's own cost attribute is not counted twice)", () => {
    const text = renderTraceTree(trace());
    expect(text).toContain("learn step 1  1.50 s  $0.00700  7 calls, 700 in / 70 out tokens");
    expect(text).toContain("\n  rollout  1.50 s  $0.00700  7 calls");
    expect(text).toContain("\n    rollout  1.50 s  $0.00100  1 call, 100 in / 10 out tokens  [g/0]");
    expect(text).toContain("\n      chat m  1.50 s");
    // Seven siblings of one name: four shown, the rest summed up.
    expect(text).toContain("… 3 more rollout (median 1.50 s, max 1.50 s, $0.00300)");
    expect(text).not.toContain("[g/4]");
  });

  it("filters by step and by rollout, and says when nothing matches", () => {
    expect(renderTraceTree(trace(), { step: 2 })).toBe(
      "learn step 2  1.50 s  $0.5000  1 call, 100 in / 10 out tokens\n  chat m  1.50 s  $0.5000  1 call, 100 in / 10 out tokens\n",
    );
    expect(renderTraceTree(trace(), { rollout: "g/5" })).toContain(
      "rollout  1.50 s  $0.00100  1 call, 100 in / 10 out tokens  [g/5]",
    );
    expect(renderTraceTree(trace(), { step: 9 })).toBe("no spans of step 9 in this trace\n");
    expect(renderTraceTree(trace(), { rollout: "nope" })).toBe("no rollout nope in this trace\n");
  });
});
