import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isTestFile, packageFiles, repositoryRoot, workspacePackages } from "./source-imports.js";

/**
 * No product code branches on the text of tfgrpo's own messages or decision reasons: a contract between modules is a
 * `code`, typed `details` or a typed decision rule (`staleParentOf`, `gateDecisionRule`), so rewording a sentence for
 * people can never silently break resume, takeover or metrics. A third-party library that gives no code may still be
 * matched on its message; each such place is listed below with why.
 */
const allowed: Array<{ file: string; line: RegExp; why: string }> = [
  {
    file: "packages/models/src/structured-output.ts",
    line: /response_format\|json_schema/,
    why: "a provider's 400 that refuses structured output: providers give no code for it",
  },
  {
    file: "packages/models/src/config/parse-models-config.ts",
    line: /issue\.message\.endsWith\("received undefined"\)/,
    why: "zod's own issue text: zod 4 marks a missing field only in its message",
  },
  {
    file: "packages/models/src/config/parse-models-config.ts",
    line: /problem\.message\.startsWith\("\("\)/,
    why: "formatting only (where the separator goes), no decision",
  },
  {
    file: "packages/store/src/postgres/postgres-connection.ts",
    line: /timeout exceeded when trying to connect\|Connection terminated/,
    why: "pg's pool errors carry no code for these",
  },
  {
    file: "apps/runner/src/data-import/read-records.ts",
    line: /Invalid Record Length/,
    why: "csv-parse's error for a short row (its code is shared with other length errors)",
  },
  {
    file: "packages/protocol/src/kernel/infrastructure-failure.ts",
    line: /call\.error\?\.startsWith\(sandboxUnavailablePrefix\)/,
    why: "trajectories stored before tool calls carried errorCode: their marker is all there is",
  },
];

// A test of a message's or reason's text: `.message.includes(`, `reason.startsWith(`, `/x/.test(e.message)`,
// `String(error).includes(`, `.message === "..."`. Patterns, not a parser: lines are formatted (biome), and a
// false alarm is fixed by typing the contract or, for a third party, by an entry above.
const textTests = [
  /\b(message|reason|stderr|error)\??\.(includes|startsWith|endsWith|match|search)\(/,
  /\/[gimsuy]*\.test\([^;]*?\b(message|reason)\b/,
  // `reason === "answered"` is most often a typed enum (a stop reason); a message never is.
  /(?<!typeof\s+[\w.?]+)\.message\s*[!=]==\s*["'`]/,
  /String\((error|err|e|cause)\)\.(includes|startsWith|endsWith|match)\(/,
];

/** The online area is checked too: it is product code like any other. Only sim and test files are out of scope. */
function productFiles(): string[] {
  return workspacePackages()
    .filter((p) => p.name !== "@tfgrpo/sim")
    .flatMap((p) => packageFiles(p.directory).filter((file) => !isTestFile(p.directory, file)));
}

describe("contracts are typed, not worded", () => {
  it("no product code branches on the text of a message or a decision's reason", () => {
    const found: string[] = [];
    const used = new Set<number>();
    for (const file of productFiles()) {
      const relative = path.relative(repositoryRoot, file).split(path.sep).join("/");
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((text, index) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(text) || !textTests.some((pattern) => pattern.test(text))) return;
          const entry = allowed.findIndex((a) => a.file === relative && a.line.test(text));
          if (entry >= 0) used.add(entry);
          else found.push(`${relative}:${index + 1}: ${text.trim()}`);
        });
    }
    expect(found).toEqual([]);
    // An entry nothing matches any more is removed, so the list stays the list of real exceptions.
    expect(allowed.filter((_, index) => !used.has(index)).map((a) => a.file)).toEqual([]);
  });

  it("the check sees the forms it is meant to catch", () => {
    const catches = (line: string) => textTests.some((pattern) => pattern.test(line));
    expect(catches("  return /parent is no longer the head/.test(gate.reason);")).toBe(true);
    expect(catches('if (error.message.includes("lease")) {')).toBe(true);
    expect(catches("kind: /^abandoned:/.test(event.decision.reason) ? 1 : 2,")).toBe(true);
    expect(
      catches('if (TfgrpoError.hasCode(error, "conflict") && /lease/.test((error as Error).message)) {'),
    ).toBe(true);
    expect(catches('v.message?.startsWith("lifecycle") ||')).toBe(true);
    expect(catches('if (error.message === "lease lost") {')).toBe(true);
    expect(catches('const text = typeof record.message === "string" ? record.message : "";')).toBe(false);
    expect(catches("if (gateDecisionRule(decision) === gateDecisionRules.staleParent) {")).toBe(false);
  });
});
