import { describe, expect, it } from "vitest";
import { readableText, readProgramOutput } from "./tool-output.js";

describe("reading what a code runner gave back", () => {
  it.each([
    ["tfgrpo's JSON", JSON.stringify({ stdout: "7\n42\n", stderr: "", exitCode: 0, killed: false })],
    ["a subprocess's JSON", JSON.stringify({ stdout: "42\n", returncode: 0 })],
    ["{output}", JSON.stringify({ output: "42" })],
    ["{result} as a number", JSON.stringify({ result: 42 })],
    ["plain printed text", "42\n"],
    ["a JSON string wrapped once more", JSON.stringify(JSON.stringify({ stdout: "42\n", exit_code: 0 }))],
    ["a JSON string of plain text", JSON.stringify("42\n")],
    ["content blocks", JSON.stringify([{ type: "text", text: "42\n" }])],
    ["labelled sections", "STDOUT:\n42\n\nSTDERR:\nDeprecationWarning: error: old\n\nEXIT CODE: 0"],
    ["a one-line label", "Output: 42"],
    ["a nested result", JSON.stringify({ result: { stdout: "42\n", stderr: "" } })],
    ["a bare number", "42"],
  ])("%s", (_, output) => {
    expect(readProgramOutput(output)).toEqual({ ok: true, value: "42", reason: "" });
  });

  it.each([
    ["a non-zero exit code", JSON.stringify({ stdout: "", stderr: "boom", exitCode: 1 }), "exit code 1"],
    ["a non-zero returncode", JSON.stringify({ stdout: "", stderr: "x", returncode: 2 }), "exit code 2"],
    ["a killed run", JSON.stringify({ stdout: "", killed: true }), "the run was killed"],
    ["an error field", JSON.stringify({ error: "NameError: name 'x' is not defined" }), "NameError"],
    ["success: false", JSON.stringify({ success: false, stderr: "SyntaxError: bad\n" }), "SyntaxError"],
    ["only stderr", JSON.stringify({ stderr: "ZeroDivisionError: division by zero" }), "ZeroDivisionError"],
    ["a plain traceback", "Traceback (most recent call last):\n  ...\nValueError: x", "Traceback"],
    ["a labelled failure", "stdout:\n\nstderr:\nboom\nexit code: 1", "exit code 1"],
    ["nothing printed", JSON.stringify({ stdout: "", stderr: "", exitCode: 0 }), "printed nothing"],
  ])("a failure: %s", (_, output, reason) => {
    const read = readProgramOutput(output);
    expect(read.ok).toBe(false);
    expect(read.reason).toContain(reason);
  });

  it("says when there is no result at all", () => {
    expect(readProgramOutput(null)).toEqual({ ok: false, value: null, reason: "no tool result" });
  });
});

describe("reading a search result or a page", () => {
  it("keeps plain text as it is", () => {
    const text = "1. Title\n   URL: http://a.example/x\n   snippet";
    expect(readableText(text)).toBe(text);
  });

  it("reads the strings of a JSON result list, in any field names", () => {
    const listed = readableText(
      JSON.stringify([
        { title: "About", link: "http://a.example/about", content: "Founded in 1921." },
        { name: "Profile", href: "http://b.example/p", snippet: "founded 1923" },
      ]),
    );
    for (const part of ["http://a.example/about", "Founded in 1921.", "http://b.example/p", "founded 1923"])
      expect(listed).toContain(part);
  });

  it("reads an HTML page's text and a JSON page's content", () => {
    expect(readableText("<html><body><p>Founded in <b>1,921</b>.</p></body></html>")).toContain(
      "Founded in 1,921.",
    );
    expect(
      readableText(JSON.stringify({ url: "http://a.example", content: "<p>Fleet: 532 buses</p>" })),
    ).toContain("Fleet: 532 buses");
    expect(readableText(JSON.stringify(JSON.stringify({ text: "Fleet: 532" })))).toContain("Fleet: 532");
  });
});
