import { describe, expect, it } from "vitest";
import {
  evenAttempt,
  fetched,
  fleetQuestion,
  fleetResults,
  newFleetPage,
  renderCriticStyle,
  renderPlainStyle,
  searched,
} from "./critic-fixtures.test-support.js";
import { isoDate, readTrajectory } from "./trajectory-evidence.js";

describe("reading a rendered trajectory", () => {
  it("reads code, output, answer and citations from both renderings alike", () => {
    const attempt = evenAttempt(false, "Let me count.", ["G2"]);
    for (const rendered of [renderCriticStyle(attempt, "13"), renderPlainStyle(attempt)]) {
      const evidence = readTrajectory(rendered);
      expect(evidence.problem).toBe(attempt.question);
      expect(evidence.events).toHaveLength(1);
      const run = evidence.events[0]!;
      expect(run).toMatchObject({ kind: "code", ran: true, failed: false, stdout: "13\n" });
      expect(run.kind === "code" && run.code).toContain("range(12 + 1, 40)");
      expect(evidence.finalAnswer).toBe("13");
      expect(evidence.cited).toEqual(["G2"]);
    }
  });

  it("reads the experiences shown in either rendering", () => {
    const attempt = {
      ...evenAttempt(true, "Counting."),
      shown: ["[G0]. Count carefully.", "[G4]. Check bounds."],
    };
    expect(readTrajectory(renderCriticStyle(attempt, "15")).shown).toEqual(["G0", "G4"]);
    expect(readTrajectory(renderPlainStyle(attempt)).shown).toEqual(["G0", "G4"]);
  });

  it("reads search hits with their dates and a fetched page with its publication date", () => {
    const attempt = {
      question: fleetQuestion,
      turns: [
        { tools: [searched("Velmora Transit buses", fleetResults)] },
        { tools: [fetched("http://www.velmora-transit.example/fleet-2024", newFleetPage)] },
        { text: "\\boxed{532}" },
      ],
    };
    const evidence = readTrajectory(renderCriticStyle(attempt, "532"));
    const [search, page] = evidence.events;
    expect(search).toMatchObject({ kind: "search", query: "Velmora Transit buses" });
    expect(search?.kind === "search" && search.hits.map((h) => h.date)).toEqual([
      "2016-05-02",
      "2024-11-20",
      null,
    ]);
    expect(page).toMatchObject({ kind: "page", date: "2024-11-20", failed: false });
    expect(evidence.finalAnswer).toBe("532");
  });

  it("treats a python block in the final message (no tools) as code written but not run", () => {
    const attempt = {
      question: "What is 7 * 8 + 1?",
      turns: [{ text: "Scratch work:\n```python\nx = 7 * 8\nprint(x + 1)\n```\nSo \\boxed{57}" }],
    };
    const evidence = readTrajectory(renderPlainStyle(attempt));
    expect(evidence.events).toEqual([
      expect.objectContaining({ kind: "code", ran: false, code: "x = 7 * 8\nprint(x + 1)\n" }),
    ]);
  });

  it("notices failed runs and cut or malformed tool output", () => {
    const rendered = [
      "[user]",
      "Q?",
      '[tool call] code_interpreter {"code":"print(1/0)"}',
      "[tool result]",
      '{"stdout":"","stderr":"ZeroDivisionError: division by zero\\n","exitCode":1,"killed":false}',
      '[tool call] code_interpreter {"code":"print(2)',
      "[tool result]",
      '{"stdout":"2\\n","stderr":"... [40 characters cut] ...',
    ].join("\n");
    const [first, second] = readTrajectory(rendered).events;
    expect(first).toMatchObject({ kind: "code", failed: true, exitCode: 1 });
    expect(second).toMatchObject({ kind: "code", code: "print(2)", stdout: "2\n" });
  });

  it("reads dates written in words or as ISO dates", () => {
    expect(isoDate("Published March 3, 2021")).toBe("2021-03-03");
    expect(isoDate("(2019-11-30) snippet")).toBe("2019-11-30");
    expect(isoDate("no date here")).toBeNull();
  });
});
