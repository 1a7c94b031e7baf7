import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { Command } from "commander";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerLibraryCommand } from "../cli-commands/library.js";
import { resolveDatabase } from "./library.js";

/** Runs `tfgrpo library ...` in this process (the spawned CLI is covered by library.int.test.ts). */
async function run(args: string[]): Promise<{ stdout: string; stderr: string; error: unknown }> {
  const program = new Command().exitOverride();
  registerLibraryCommand(program);
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  let error: unknown;
  try {
    await program.parseAsync(["node", "tfgrpo", "library", ...args]);
  } catch (caught) {
    error = caught;
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return { stdout, stderr, error };
}

describe("tfgrpo library", () => {
  let temporary: TemporaryDirectory;
  let dir: string;
  let db: string;
  const math = realLibraryPath("math");
  const web = realLibraryPath("web");
  beforeEach(async () => {
    temporary = await temporaryDirectory("tfgrpo-library-");
    dir = temporary.path;
    db = path.join(dir, "t.db");
  });
  afterEach(() => temporary[Symbol.asyncDispose]());

  it("imports, lists, shows and exports the real libraries", async () => {
    expect((await run(["import", math, "--db", db])).stdout).toBe(
      `imported 27 entries (plain) from ${math} into math as v1, now the head; ids kept\n`,
    );
    await run(["import", web, "--db", db, "--status", "candidate"]);
    const list = await run(["list", "--db", db]);
    expect(list.stdout.split("\n").slice(0, 4)).toEqual([
      "domain  head  versions  active  candidate  probation  archived  next id",
      "------  ----  --------  ------  ---------  ---------  --------  -------",
      "math    v1           1      27          0          0         0  G27",
      "web     v1           1       0         46          0         0  G46",
    ]);
    const show = await run(["show", "--domain", "web", "--db", db]);
    const lines = show.stdout.split("\n");
    expect(lines[0]).toBe("web v1 (committed, head): 46 visible entries, 0 archived");
    expect(lines[1]).toMatch(
      /^id\s+status\s+shown\s+success\s+credit: contrast \[interval\]\s+groups\s+text$/,
    );
    // No contrast yet: a dash in the credit column, 0 groups.
    expect(lines[3]).toMatch(/^G0 {3}candidate {6}0 {8}- {28}- {7}0 {2}Verification methods: /);
    expect(lines).toHaveLength(3 + 46 + 1);

    const out = path.join(dir, "web.json");
    await run(["export", "--domain", "web", "--format", "plain", "--out", out, "--db", db]);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(web, "utf8"));
    const json = await run(["export", "--domain", "math", "--db", db]);
    expect(JSON.parse(json.stdout)).toMatchObject({ format: "tfgrpo-library", domain: "math", version: 1 });
  });

  it("shows success rates, credit as a contrast with its interval, archived entries on request, and older versions", async () => {
    await run(["import", math, "--db", db]);
    const store = await createStore(db);
    // Four groups read v1 (differences with mean 0.25), two more read v2: six in all.
    await store.updateStats("math", [
      {
        id: "G1",
        shown: 4,
        success: 3,
        sumDelta: 1,
        lastUsedVersion: 1,
        contrast: { n: 4, sum: 1, sumSquares: 0.5 },
      },
    ]);
    await store.applyOperations("math", [{ op: "delete", id: "G0", reason: "too vague" }], {
      parent: 1,
      state: "committed",
    });
    await store.updateStats("math", [
      { id: "G1", lastUsedVersion: 2, contrast: { n: 2, sum: 0.5, sumSquares: 0.25 } },
    ]);
    await store.close();
    const head = await run(["show", "--domain", "math", "--db", db]);
    expect(head.stdout).toMatch(
      /^math v2 \(committed, head\): 26 visible entries, 1 archived \(--all shows them\)\n/,
    );
    // Mean 0.25 over 6 groups; deviations 0.375, shrunk variance (0.375 + 2 * 0.2) / 7, bound 1.645 * sqrt(var / 6).
    expect(head.stdout).toMatch(
      /\nG1 {3}active {6}4 {6}75% {6}\+0\.250 \[\+0\.027, \+0\.473\] {7}6 {2}Trigonometric/,
    );
    expect(head.stdout).toMatch(/\nG2 {3}active {6}0 {8}- {28}- {7}0 {2}Geometry/);

    const entry = (await run(["show", "--domain", "math", "--entry", "G1", "--db", db])).stdout.split("\n");
    expect(entry[0]).toMatch(/^math v2: G1 \(active\): Trigonometric simplification: /);
    expect(entry.slice(1, 4)).toEqual([
      "shown 4, success 75%, last shown in v2",
      "credit (contrast, reward shown - withheld): +0.250 [+0.027, +0.473] over 6 groups",
      "credit by library version:",
    ]);
    // Per version: v1 alone is 4 groups, v2 alone 2, so both intervals are wider than the whole one.
    expect(entry[4]).toMatch(/^version\s+credit: contrast \[interval\]\s+groups$/);
    expect(entry[6]).toMatch(/^v1 {11}\+0\.250 \[-0\.047, \+0\.547\] {7}4$/);
    expect(entry[7]).toMatch(/^v2 {11}\+0\.250 \[-0\.237, \+0\.737\] {7}2$/);
    expect(entry[8]).toBe("history:");
    expect(entry[9]).toMatch(/^ {2}v1: new -> active: /);

    const json = JSON.parse((await run(["show", "--domain", "math", "--json", "--db", db])).stdout);
    expect(json).toMatchObject({ domain: "math", version: 2, state: "committed", head: true });
    expect(json.entries).toHaveLength(26);
    const g1 = json.entries.find((e: { id: string }) => e.id === "G1");
    expect(g1).toMatchObject({ status: "active", shown: 4, success: 3, contrast: { n: 6, estimate: 0.25 } });
    expect(g1.contrast.lower).toBeCloseTo(0.027, 3);
    expect(g1.contrast.upper).toBeCloseTo(0.473, 3);
    expect(json.entries.find((e: { id: string }) => e.id === "G2").contrast).toBeNull();
    const entryJson = JSON.parse(
      (await run(["show", "--domain", "math", "--entry", "G1", "--json", "--db", db])).stdout,
    );
    expect(entryJson).toMatchObject({
      domain: "math",
      version: 2,
      id: "G1",
      contrast: { n: 6 },
      stats: { contrast: { n: 6, sum: 1.5, sumSquares: 0.75 } },
    });
    expect(
      entryJson.versionContrasts.map((row: { version: number; contrast: { n: number } }) => [
        row.version,
        row.contrast.n,
      ]),
    ).toEqual([
      [1, 4],
      [2, 2],
    ]);
    const none = (await run(["show", "--domain", "math", "--entry", "G2", "--db", db])).stdout;
    expect(none).toContain(
      "credit (contrast, reward shown - withheld): no contrast yet\nno credit by library version yet\n",
    );
    expect(head.stdout).not.toMatch(/\nG0 /);
    expect((await run(["show", "--domain", "math", "--all", "--db", db])).stdout).toMatch(/\nG0 {3}archived/);
    expect((await run(["show", "--domain", "math", "--version", "v1", "--db", db])).stdout).toMatch(
      /^math v1 \(committed\): 27 visible entries, 0 archived\n/,
    );
  });

  it("diffs versions, rolls back, and lists versions", async () => {
    await run(["import", math, "--db", db]);
    const store = await createStore(db);
    await store.applyOperations(
      "math",
      [
        { op: "modify", id: "G1", text: "Use complementary angles.", status: "probation", reason: "shorter" },
        { op: "delete", id: "G2", reason: "too long" },
        { op: "add", text: "Check the answer's range.", reason: "new" },
      ],
      { parent: 1, state: "committed" },
    );
    await store.close();
    const diff = await run(["diff", "1", "head", "--domain", "math", "--db", db]);
    expect(diff.stdout.split("\n").slice(0, 3)).toEqual([
      "math: v1 -> v2: 1 added, 1 removed, 1 changed",
      "+ G27 [candidate] Check the answer's range.",
      expect.stringMatching(/^- G2 \[archived, was active\] Geometry verification: /),
    ]);
    expect(diff.stdout).toContain("~ G1\n    text: Trigonometric simplification:");
    expect(diff.stdout).toContain("          -> Use complementary angles.\n    status: active\n");
    expect((await run(["diff", "none", "1", "--domain", "math", "--db", db])).stdout).toMatch(
      /^math: the empty library -> v1: 27 added/,
    );

    expect((await run(["rollback", "1", "--domain", "math", "--db", db])).stdout).toBe(
      "rolled math back to v1: committed as v3 (parent v2), now the head\n",
    );
    const versions = (await run(["list", "--domain", "math", "--db", db])).stdout.split("\n");
    expect(versions[0]).toMatch(/^version\s+parent\s+state\s+operations\s+gate\s+created\s+message$/);
    expect(versions[2]).toMatch(/^v1 {9}none {4}committed {2}27 add/);
    expect(versions[3]).toMatch(/^v2 {9}v1 {6}committed {2}1 modify, 1 delete, 1 add/);
    expect(versions[4]).toMatch(/^v3 \(head\) {2}v2 {6}committed {2}- .* rollback to v1$/);
  });

  it("round-trips Markdown into another library, and gives new ids (printing the mapping) where ids are taken", async () => {
    await run(["import", math, "--db", db]);
    const file = path.join(dir, "lessons.md");
    await run(["export", "--domain", "math", "--format", "markdown", "--out", file, "--db", db]);
    expect(readFileSync(file, "utf8")).toMatch(/^# Experience library: math, version 1\n/);
    expect((await run(["import", file, "--domain", "algebra", "--db", db])).stdout).toContain(
      "imported 27 entries (markdown)",
    );
    const again = await run(["import", file, "--db", db]);
    expect(again.stdout).toContain(
      "into math as v2, now the head; new ids given\n  G0 -> G27\n  G1 -> G28\n",
    );
    const store = await createStore(db);
    const [original, copy] = [await store.getVersion("math", 1), await store.getHead("algebra")];
    expect(copy!.experiences).toEqual(original!.experiences.map((e) => ({ ...e, domain: "algebra" })));
    await store.close();
  });

  it("fails with clear errors on bad arguments and files", async () => {
    const missing = await run(["list", "--db", db]);
    expect(TfgrpoError.hasCode(missing.error, "not_found")).toBe(true);
    await run(["import", math, "--db", db]);
    const domain = await run(["show", "--domain", "Math!", "--db", db]);
    expect((domain.error as Error).message).toMatch(/^--domain Math!: domain must be lowercase/);
    const badEntry = await run(["show", "--domain", "math", "--entry", "3", "--db", db]);
    expect((badEntry.error as Error).message).toBe("--entry 3: experience ids look like G0, G1, G17");
    const missingEntry = await run(["show", "--domain", "math", "--entry", "G99", "--db", db]);
    expect(TfgrpoError.hasCode(missingEntry.error, "not_found")).toBe(true);
    expect((missingEntry.error as Error).message).toBe("library math v1 has no entry G99");
    const version = await run(["show", "--domain", "math", "--version", "latest", "--db", db]);
    expect((version.error as Error).message).toBe(
      'version "latest": expected a number like 3 or v3, or head',
    );
    const unnamed = path.join(dir, "My Lessons.json");
    writeFileSync(unnamed, "{}");
    expect((await run(["import", unnamed, "--db", db])).error).toMatchObject({
      message: `cannot tell which library ${unnamed} is for: pass --domain`,
    });
    const bad = path.join(dir, "bad.md");
    writeFileSync(bad, ["# x", "", "## G0", "", "```json tfgrpo-entry", "{not json}", "```"].join("\n"));
    expect(((await run(["import", bad, "--domain", "math", "--db", db])).error as Error).message).toMatch(
      /^cannot import .*bad\.md, nothing changed: .*bad\.md:5: entry G0 field "metadata": invalid JSON/,
    );
    expect(((await run(["import", path.join(dir, "nope.json"), "--db", db])).error as Error).message).toMatch(
      /nope\.json: cannot read library file: no such file$/,
    );
  });
});

describe("resolveDatabase", () => {
  it("prefers --db, then TFGRPO_DB, then .tfgrpo/tfgrpo.db", () => {
    expect(resolveDatabase({ db: "a.db" }, { TFGRPO_DB: "b.db" })).toBe("a.db");
    expect(resolveDatabase({}, { TFGRPO_DB: "b.db" })).toBe("b.db");
    expect(resolveDatabase({}, {})).toBe(path.join(".tfgrpo", "tfgrpo.db"));
  });
});
