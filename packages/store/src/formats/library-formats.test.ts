import { type Experience, emptyExperienceStats, TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { detectLibraryFormat } from "./library-file.js";
import { parseLibraryFile, renderLibrary } from "./library-formats.js";

function entry(id: string, text: string, extra: Partial<Experience> = {}): Experience {
  return {
    id,
    domain: "math",
    text,
    status: "active",
    stats: emptyExperienceStats(),
    provenance: { runId: null, version: 1, fromOps: [] },
    history: [],
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...extra,
  };
}

function problemsOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(TfgrpoError.hasCode(error, "invalid_input")).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected the file to be refused");
}

describe("detectLibraryFormat", () => {
  it.each([
    ["x.md", "anything", "markdown"],
    ["x.markdown", "{}", "markdown"],
    ["x.json", '{"G0": "a"}', "plain"],
    ["x.json", '{"format": "tfgrpo-library"}', "json"],
    ["x.json", "{broken", "json"],
    ["x.txt", '  {"G0": "a"}', "plain"],
    ["x.txt", "## G0\n\ntext", "markdown"],
    [undefined, '\uFEFF{"experiences": []}', "json"],
  ] as const)("%s %j -> %s", (file, text, format) => {
    expect(detectLibraryFormat(text, file)).toBe(format);
  });
});

describe("plain form", () => {
  it("orders ids numerically, leaves archived entries out, and refuses a non-object", () => {
    const text = renderLibrary(
      {
        domain: "math",
        version: 1,
        experiences: [entry("G10", "ten"), entry("G9", "nine"), entry("G2", "gone", { status: "archived" })],
      },
      "plain",
    );
    expect(text).toBe('{\n "G9": "nine",\n "G10": "ten"\n}');
    expect(problemsOf(() => parseLibraryFile('["a", "b"]', { file: "list.json", format: "plain" }))).toBe(
      'cannot import list.json, nothing changed: list.json: expected a JSON object like {"G0": "text", "G1": "text"}',
    );
  });
});

describe("full JSON form", () => {
  it("points a plain file read as full JSON at --format plain, and refuses duplicate ids", () => {
    expect(problemsOf(() => parseLibraryFile('{"G0": "a"}', { file: "a.json", format: "json" }))).toMatch(
      /a\.json: field "format": .*use --format plain/,
    );
    const document = {
      format: "tfgrpo-library",
      formatVersion: 1,
      domain: "math",
      version: 1,
      experiences: [entry("G0", "a"), entry("G0", "b")],
    };
    expect(problemsOf(() => parseLibraryFile(JSON.stringify(document), { file: "d.json" }))).toMatch(
      /d\.json: entry G0 \(experiences\[1\]\) field "id": duplicates experiences\[0\]/,
    );
  });
});

describe("Markdown form", () => {
  const snapshot = {
    domain: "math",
    version: 4,
    experiences: [
      entry("G0", "Plain text."),
      entry("G1", "```\nfenced\n```"),
      entry("G2", "trailing space "),
      entry("G3", "# heading-like"),
    ],
  };

  it("writes texts verbatim when Markdown can carry them, else inside the metadata (shown indented)", () => {
    const text = renderLibrary(snapshot, "markdown");
    expect(text).toContain('## G0\n\nPlain text.\n\n```json tfgrpo-entry\n{\n  "status": "active",');
    expect(text).toContain(
      '## G1\n\n    ```\n    fenced\n    ```\n\n```json tfgrpo-entry\n{\n  "text": "```\\nfenced\\n```",',
    );
    expect(text).toContain('"text": "trailing space "');
    expect(text).toContain('"text": "# heading-like"');
    const parsed = parseLibraryFile(text, { file: "lib.md" });
    expect(parsed.domain).toBe("math");
    expect(parsed.entries.map((e) => e.text)).toEqual(snapshot.experiences.map((e) => e.text));
  });

  it("reads CRLF files, ~~~ fences and code blocks in hand-written bodies", () => {
    const lines = ["## G0", "", "Run this:", "", "```python", "print(1)", "```", "", "## G1", "Second."];
    lines.push("~~~json tfgrpo-entry", '{"status": "candidate"}', "~~~", "");
    const parsed = parseLibraryFile(lines.join("\r\n"), { file: "hand.md" });
    expect(parsed.entries).toEqual([
      { id: "G0", text: "Run this:\n\n```python\nprint(1)\n```", fields: {} },
      { id: "G1", text: "Second.", fields: { status: "candidate" } },
    ]);
  });

  it("reports every problem with its line, and refuses files without entries", () => {
    expect(problemsOf(() => parseLibraryFile("just prose\n", { file: "p.md" }))).toMatch(
      /p\.md: no entries: expected "## G<n>" sections/,
    );
    expect(problemsOf(() => parseLibraryFile("## G0\n\n```json tfgrpo-entry\n{}\n", { file: "u.md" }))).toBe(
      "cannot import u.md, nothing changed: u.md:3: code fence is never closed",
    );
    const message = problemsOf(() =>
      parseLibraryFile(
        [
          "## G0",
          "a",
          "```json tfgrpo-entry",
          "{}",
          "```",
          "stray text",
          "## G0",
          "b",
          "## G2",
          "```json tfgrpo-entry",
          "{}",
          "```",
          "```json tfgrpo-entry",
          "{}",
          "```",
          "## G3",
          "",
        ].join("\n"),
        { file: "m.md" },
      ),
    );
    expect(message).toContain('m.md:6: entry G0 field "text": text after the metadata block');
    expect(message).toContain('m.md:7: entry G0 field "id": duplicates the entry at line 1');
    expect(message).toContain('m.md:13: entry G2 field "metadata": more than one json tfgrpo-entry block');
    expect(message).toContain('m.md:16: entry G3 field "text": is empty');
  });

  it("accepts a header-only file as an empty library", () => {
    const text = renderLibrary({ domain: "web", version: 2, experiences: [] }, "markdown");
    expect(parseLibraryFile(text, { file: "empty.md" })).toEqual({
      format: "markdown",
      domain: "web",
      entries: [],
    });
  });
});
