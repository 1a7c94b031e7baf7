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

  it("reads a team's own tools by what they carried and returned, whatever they are called", () => {
    const rendered = [
      "[user]",
      "Q?",
      '[tool call] py_exec {"source":"n = 0\\nfor k in range(1, 40):\\n    n += k % 3 == 0\\nprint(n)"}',
      "[tool result]",
      '{"stdout": "13\\n", "returncode": 0}',
      '[tool call] runner {"program":"print(1/0)"}',
      "[tool result]",
      "Traceback (most recent call last):\nZeroDivisionError: division by zero",
      '[tool call] internet_lookup {"q":"Velmora Transit buses","num":3}',
      "[tool result]",
      JSON.stringify([
        { title: "Fleet 2016", link: "http://a.example/fleet", content: "(2016-05-02) 480 buses" },
        { title: "Fleet 2024", link: "http://b.example/fleet", content: "532 buses", date: "2024-11-20" },
      ]),
      '[tool call] read_page {"address":"http://b.example/fleet"}',
      "[tool result]",
      JSON.stringify({ content: "<html><body><p>Published 2024-11-20</p><p>532 buses</p></body></html>" }),
      '[tool call] explain_python {"code":"print(2)"}',
      "[tool result]",
      "It prints 2.",
      '[tool call] get_order_details {"order_id":"#W123"}',
      "[tool result]",
      '{"status":"pending"}',
      "[assistant]",
      "\\boxed{532}",
    ].join("\n");
    const [code, failed, search, page, explained, other] = readTrajectory(rendered).events;
    expect(code).toMatchObject({ kind: "code", ran: true, failed: false, stdout: "13\n", exitCode: 0 });
    expect(code?.kind === "code" && code.code).toContain("for k in range(1, 40):\n");
    expect(failed).toMatchObject({ kind: "code", code: "print(1/0)", failed: true });
    expect(search).toMatchObject({ kind: "search", query: "Velmora Transit buses" });
    expect(search?.kind === "search" && search.hits.map((h) => [h.url, h.date])).toEqual([
      ["http://a.example/fleet", "2016-05-02"],
      ["http://b.example/fleet", "2024-11-20"],
    ]);
    expect(page).toMatchObject({
      kind: "page",
      url: "http://b.example/fleet",
      date: "2024-11-20",
      failed: false,
    });
    expect(page?.kind === "page" && page.text).toContain("532 buses");
    expect(explained).toMatchObject({ kind: "tool", name: "explain_python" });
    expect(other).toMatchObject({ kind: "tool", name: "get_order_details" });
  });

  it("reads dates written in words or as ISO dates", () => {
    expect(isoDate("Published March 3, 2021")).toBe("2021-03-03");
    expect(isoDate("(2019-11-30) snippet")).toBe("2019-11-30");
    expect(isoDate("no date here")).toBeNull();
  });
});
