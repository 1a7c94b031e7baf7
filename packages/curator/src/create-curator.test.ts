import { readFileSync } from "node:fs";
import { estimateTokens, gateDecisionRule, type Proposal } from "@tfgrpo/protocol";
import { createStore, type Store } from "@tfgrpo/store";
import { expectTfgrpoError, realLibraryPath } from "@tfgrpo/store/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCurator } from "./create-curator.js";
import { createScriptedModels, shownExperienceIds, suggestedUpdates } from "./testing/index.js";
import { countWords } from "./word-limit.js";

const now = () => new Date("2026-03-01T12:00:00.000Z");
let store: Store;
/** The math head after import (the first version number is the store's business). */
let base: number;

beforeEach(async () => {
  store = await createStore(":memory:", { now });
  await store.importLibrary("math", {
    text: readFileSync(realLibraryPath("math"), "utf8"),
    file: "math.json",
  });
  await store.importLibrary("web", { text: readFileSync(realLibraryPath("web"), "utf8"), file: "web.json" });
  base = (await store.getHeadVersion("math"))!;
});
afterEach(async () => {
  await store.close();
});

const proposal = (id: string, fields: Partial<Proposal>): Proposal => ({
  proposalId: id,
  op: "add",
  reason: `reason ${id}`,
  groupId: `group-${id}`,
  taskId: `task-${id}`,
  ...fields,
});

describe("curator.consolidate", () => {
  it("writes the model's consolidated operations as a proposed version on the base", async () => {
    const models = createScriptedModels({
      consolidation: () => {
        return {
          operations: [
            {
              option: "merge",
              experience_ids: ["G6", "P1"],
              experience:
                "When a combinatorial count is found, verify it by an independent method such as brute-force enumeration.",
              reason: "same lesson",
            },
            {
              option: "modify",
              experience_id: "P2",
              experience:
                "When code needs earlier variables, redefine all imports and values in each execution block.",
              reason: "tightened",
            },
            { option: "delete", experience_id: "G3", reason: "too specific" },
          ],
        };
      },
    });
    const curator = createCurator({ store, models, now });
    const result = await curator.consolidate({
      runId: "run-1",
      domain: "math",
      baseVersion: base,
      proposals: [
        proposal("p1", { text: "When counting combinatorial objects, verify the count with brute force." }),
        proposal("p2", { op: "modify", id: "G8", text: "Redefine all variables in each code block." }),
      ],
    });
    expect(result.fallback).toBe(false);
    expect(result.chunks).toBe(1);
    // The model rewrote neither over-long entry (G2, G5), so the curator shortened them itself.
    expect(result.operations.map((op) => [op.op, "id" in op ? op.id : null])).toEqual([
      ["modify", "G6"],
      ["modify", "G8"],
      ["delete", "G3"],
      ["modify", "G2"],
      ["modify", "G5"],
    ]);
    expect(result.operations[0]).toMatchObject({ id: "G6", reason: "same lesson (from proposals p1)" });
    expect(result.operations[1]).toMatchObject({ id: "G8", reason: "tightened (from proposals p2)" });
    expect(result.operations[3]).toMatchObject({ reason: "shortened to the 32-word limit (was over it)" });
    expect(result.version).toBeGreaterThan(base);

    const info = await store.getVersionInfo("math", result.version!);
    expect(info).toMatchObject({ state: "proposed", parent: base, runId: "run-1" });
    expect(info!.message).toBe("consolidation of 2 proposals: 4 modify, 1 delete");
    for (const entry of (await store.getVersion("math", result.version!))!.experiences)
      if (entry.status !== "archived") expect(countWords(entry.text)).toBeLessThanOrEqual(32);
    // The model was asked to rewrite them first.
    const rewrites = suggestedUpdates(models.calls[0]!.prompt).filter((u) =>
      String(u.reason).startsWith("over the 32-word limit"),
    );
    expect(rewrites.map((u) => u.experience_id)).toEqual(["G2", "G5"]);
    const snapshot = await store.getVersion("math", result.version!);
    expect(snapshot!.experiences.find((e) => e.id === "G3")!.status).toBe("archived");
    expect(snapshot!.experiences.find((e) => e.id === "G8")!.text).toMatch(
      /^When code needs earlier variables/,
    );
    // The head is untouched until the gate commits.
    expect((await store.getHead("math"))!.version).toBe(base);
    // The whole 27-entry library fits one prompt, so the model saw all of it.
    expect(shownExperienceIds(models.calls[0]!.prompt)).toHaveLength(27);
    expect(models.calls[0]!.prompt).toContain("at most 32 words");
  });

  it("keeps every proposal as a candidate when the model's answer stays unusable", async () => {
    const models = createScriptedModels({ consolidation: () => ({ operations: [{ option: "explode" }] }) });
    const curator = createCurator({ store, models, now });
    const long = `When a long lesson is proposed, ${Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ")}.`;
    const result = await curator.consolidate({
      runId: "run-1",
      domain: "math",
      baseVersion: base,
      proposals: [
        proposal("p1", { text: "When a sum telescopes, write the first and last terms explicitly." }),
        proposal("p2", {
          op: "modify",
          id: "G8",
          text: "When code fails on a missing name, rerun with all definitions.",
        }),
        proposal("p3", { op: "delete", id: "G9" }),
        proposal("p4", { text: long }),
      ],
    });
    expect(result.fallback).toBe(true);
    expect(result.operations.map((op) => op.op)).toEqual(["add", "add", "add", "modify", "modify"]);
    for (const op of result.operations.filter((o) => o.op === "add")) {
      expect(op).toMatchObject({ status: "candidate" });
      expect(countWords((op as { text: string }).text)).toBeLessThanOrEqual(32);
    }
    expect(result.notes).toContain("P3 (delete G9) not applied: model answer unusable");
    const snapshot = await store.getVersion("math", result.version!);
    const candidates = snapshot!.experiences.filter((e) => e.status === "candidate");
    expect(candidates).toHaveLength(3);
    expect(snapshot!.experiences.find((e) => e.id === "G8")!.status).toBe("active");
    expect(snapshot!.experiences.find((e) => e.id === "G9")!.status).toBe("active");
  });

  it("chunks a large batch so no prompt exceeds the budget, each with the entries it targets", async () => {
    const models = createScriptedModels({
      consolidation: (prompt) => ({
        operations: suggestedUpdates(prompt).map((update) => ({
          option: "keep",
          experience_id: update.temp_id,
          reason: "fine",
        })),
      }),
    });
    const maxPromptTokens = 900;
    const curator = createCurator({ store, models, now, config: { maxPromptTokens } });
    const proposals = Array.from({ length: 40 }, (_, index) =>
      index % 4 === 0
        ? proposal(`m${index}`, {
            op: "modify",
            id: `G${index % 27}`,
            text: `When case ${index} arises in algebra, substitute small values ${index} before solving.`,
          })
        : proposal(`a${index}`, {
            text: `When topic ${index} appears, tabulate the ${index} cases with code and look for the invariant.`,
          }),
    );
    const result = await curator.consolidate({
      runId: "run-2",
      domain: "math",
      baseVersion: base,
      proposals,
    });
    expect(result.chunks).toBeGreaterThan(2);
    const prompts = models.calls.filter((call) => call.name === "consolidation").map((call) => call.prompt);
    expect(prompts).toHaveLength(result.chunks);
    const seen = new Set<string>();
    for (const prompt of prompts) {
      // The system message and schema are budgeted too; the user message alone must be well under.
      expect(estimateTokens(prompt)).toBeLessThanOrEqual(maxPromptTokens);
      const shown = shownExperienceIds(prompt);
      for (const update of suggestedUpdates(prompt)) {
        seen.add(String(update.temp_id));
        if (update.experience_id) expect(shown).toContain(update.experience_id);
      }
    }
    // 40 proposals plus a rewrite request for the over-long G2 (G5, also over, is already targeted by m32).
    expect(seen.size).toBe(41);
    expect(result.operations.filter((op) => op.op === "add")).toHaveLength(30);
    expect(result.operations.filter((op) => op.op === "modify")).toHaveLength(11);
  });

  it("puts a new entry that contradicts an existing one into a mutual-exclusion group with it", async () => {
    const models = createScriptedModels({
      consolidation: (prompt) => ({
        operations: suggestedUpdates(prompt).map((u) => ({ option: "keep", experience_id: u.temp_id })),
      }),
    });
    const curator = createCurator({ store, models, now, config: { conflicts: { topicSimilarity: 0.5 } } });
    const g8 = (await store.getHead("math"))!.experiences.find((e) => e.id === "G8")!;
    expect(g8.text).toMatch(/^Code isolation: Bundle all necessary imports/);
    const result = await curator.consolidate({
      runId: "run-3",
      domain: "math",
      baseVersion: base,
      proposals: [
        proposal("p1", {
          text: "Code isolation: never bundle all necessary imports in each block; reuse earlier definitions.",
        }),
      ],
    });
    expect(result.conflicts.pairs).toEqual([
      expect.objectContaining({
        a: "G8",
        b: "N1",
        source: "rule",
        reason: expect.stringContaining('"bundl necessary"'),
      }),
    ]);
    const snapshot = await store.getVersion("math", result.version!);
    const [created] = result.createdIds;
    const group = snapshot!.experiences.find((e) => e.id === "G8")!.conflictGroup;
    expect(group).toMatch(/^cg-/);
    expect(snapshot!.experiences.find((e) => e.id === created)!.conflictGroup).toBe(group);
  });

  it("returns no version when nothing changes", async () => {
    const curator = createCurator({ store, models: createScriptedModels(), now, config: { wordLimit: 40 } });
    const head = (await store.getHead("math"))!;
    const result = await curator.consolidate({
      runId: "run-4",
      domain: "math",
      baseVersion: base,
      proposals: [proposal("p1", { text: head.experiences[0]!.text })],
    });
    expect(result).toMatchObject({ version: null, operations: [], notes: ["p1: repeats G0, dropped"] });
  });

  it("refuses an unknown base version by name", async () => {
    const curator = createCurator({ store, models: createScriptedModels(), now });
    const error = await expectTfgrpoError(
      curator.consolidate({ runId: "r", domain: "math", baseVersion: 7, proposals: [] }),
      "not_found",
    );
    expect(error.message).toBe("library math@v7 not found");
  });
});

describe("curator.credit and curator.updateLifecycle", () => {
  it("adds stats from a batch, skipping ids the library does not know", async () => {
    const curator = createCurator({ store, models: createScriptedModels(), now });
    const result = await curator.credit({
      domain: "math",
      version: base,
      observations: [
        { trajectoryId: "t1", reward: 1, groupMeanReward: 0.5, shown: ["G1", "G2"], cited: [] },
        { trajectoryId: "t2", reward: 0, groupMeanReward: 0.5, shown: ["G1", "G404"], cited: [] },
      ],
    });
    expect(result).toEqual({ updated: 2, statsRevision: expect.stringMatching(/^stats-[0-9a-f]{16}$/) });
    const g1 = (await store.getHead("math"))!.experiences.find((e) => e.id === "G1")!;
    expect(g1.stats).toEqual({ shown: 2, success: 1, sumDelta: 0, lastUsedVersion: base });
    // The revision names the stats the curator left: the same stats name it again, new evidence another.
    const again = await curator.credit({ domain: "math", version: base, observations: [] });
    expect(again).toEqual({ updated: 0, statsRevision: result.statsRevision });
    const more = await curator.credit({
      domain: "math",
      version: base,
      observations: [{ trajectoryId: "t3", reward: 1, groupMeanReward: 1, shown: ["G1"], cited: [] }],
    });
    expect(more.statsRevision).not.toBe(result.statsRevision);
  });

  it("moves entries on evidence, writes a committed version and records each reason in the history", async () => {
    const curator = createCurator({
      store,
      models: createScriptedModels(),
      now,
      config: { activeBudget: { maxEntries: 20, maxTokens: 5000 }, lifecycle: { minEvidence: 3 } },
    });
    // G5 is varied in four groups: the attempts shown it fail, those it was withheld from pass; nothing else varies.
    const observations = Array.from({ length: 4 }, (_, group) =>
      [0, 1, 2, 3].map((attempt) => ({
        trajectoryId: `g${group}/${attempt}`,
        reward: attempt < 2 ? 0 : 1,
        groupMeanReward: 0.5,
        shown: attempt < 2 ? ["G5"] : [],
        cited: [],
        groupId: `g${group}`,
        ...(attempt < 2 ? {} : { withheld: ["G5"] }),
      })),
    ).flat();
    await curator.credit({ domain: "math", version: base, observations });
    const credited = (await store.getHead("math"))!.experiences.find((e) => e.id === "G5")!;
    expect(credited.stats.contrast).toEqual({ n: 4, sum: -4, sumSquares: 4 });
    const result = await curator.updateLifecycle("math");
    expect(result.version).toBeGreaterThan(base);
    const byId = new Map(result.transitions.map((t) => [t.id, t]));
    expect(byId.get("G5")).toMatchObject({ from: "active", to: "probation" });
    // 27 imported active entries, G5 demoted, budget 20: the 6 lowest others overflow to probation too.
    expect(result.transitions.filter((t) => t.reason.startsWith("over the active budget"))).toHaveLength(6);
    const head = (await store.getHead("math"))!;
    expect(head.version).toBe(result.version);
    expect(head.experiences.filter((e) => e.status === "active")).toHaveLength(20);
    const g5 = head.experiences.find((e) => e.id === "G5")!;
    expect(g5.history.at(-1)).toMatchObject({
      version: result.version,
      from: "active",
      to: "probation",
    });
    expect(g5.history.at(-1)!.reason).toMatch(
      /^hurts: contrast -1\.000 \[-1\.000, -0\.\d{3}\] over 4 groups \(90% confidence sequence\) \(sequential test of no harm beyond \+0\.000 against -0\.150 or -0\.300: log likelihood ratio \d+\.\d\d, threshold 1\.39 \(level 0\.25\)\)$/,
    );
  });
});

describe("curator.gate", () => {
  async function propose(curator: ReturnType<typeof createCurator>, text: string) {
    const result = await curator.consolidate({
      runId: "r",
      domain: "math",
      baseVersion: base,
      proposals: [proposal("p", { text })],
    });
    return result.version!;
  }
  const keepAll = () =>
    createScriptedModels({
      consolidation: (prompt) => ({
        operations: suggestedUpdates(prompt).map((u) => ({ option: "keep", experience_id: u.temp_id })),
      }),
    });

  const fiveTimes = (scores: number[]) => [...scores, ...scores, ...scores, ...scores, ...scores];

  it("commits a better candidate and stores the decision with its numbers", async () => {
    const curator = createCurator({ store, models: keepAll(), now, config: { gate: { margin: 0.1 } } });
    const version = await propose(curator, "When a graph problem appears, draw small cases first.");
    const decision = await curator.gate({
      domain: "math",
      candidateVersion: version,
      headVersion: base,
      // 20 tasks: the paired test needs enough of them to rule out a loss.
      candidateScores: fiveTimes([1, 1, 0, 1]),
      headScores: fiveTimes([1, 0, 0, 1]),
      stage: "full",
      samplesPerTask: 2,
      rule: "paired-t",
    });
    expect(decision).toMatchObject({ decision: "commit", candidateScore: 0.75, headScore: 0.5, margin: 0.1 });
    const info = await store.getVersionInfo("math", version);
    expect(info!.state).toBe("committed");
    expect(info!.gate).toMatchObject({
      decision: "commit",
      details: {
        wins: 5,
        losses: 0,
        candidateVersion: version,
        headVersion: base,
        test: { kind: "paired-t", tasks: 20, samplesPerTask: 2, estimate: 0.25 },
      },
    });
    expect((await store.getHead("math"))!.version).toBe(version);
  });

  it("sequential (the default): an open look writes nothing, the settled one commits with its evidence", async () => {
    const curator = createCurator({ store, models: keepAll(), now });
    const version = await propose(curator, "When a graph problem appears, draw small cases first.");
    const round = { candidate: [1, 1, 0, 1, 1, 1], head: [0, 1, 0, 0, 1, 0] };
    const look = (rounds: (typeof round)[]) =>
      curator.gate({
        domain: "math",
        candidateVersion: version,
        headVersion: base,
        candidateScores: round.candidate,
        headScores: round.head,
        stage: "full",
        rounds,
        maxRounds: 8,
      });
    const first = await look([round]);
    expect(first).toMatchObject({ decision: "inconclusive", details: { final: false } });
    expect(first.reason).toContain("sample another round");
    expect((await store.getVersionInfo("math", version))!.state).toBe("proposed");
    const settled = await look([round, round, round]);
    expect(settled).toMatchObject({
      decision: "commit",
      details: { final: true, test: { kind: "sequential", rounds: 3, maxRounds: 8, observations: 18 } },
    });
    expect((await store.getVersionInfo("math", version))!.state).toBe("committed");
  });

  it("rejects a worse candidate and keeps the head (revert E)", async () => {
    const curator = createCurator({ store, models: keepAll(), now });
    const version = await propose(curator, "When a graph problem appears, draw small cases first.");
    const decision = await curator.gate({
      domain: "math",
      candidateVersion: version,
      headVersion: base,
      candidateScores: [0, 1],
      headScores: [1, 1],
      stage: "full",
    });
    expect(decision.decision).toBe("reject");
    expect((await store.getVersionInfo("math", version))!.state).toBe("rejected");
    expect((await store.getHead("math"))!.version).toBe(base);
  });

  it("runs the pre-check first: a pass writes nothing, the full decision carries the pre-check's numbers", async () => {
    const curator = createCurator({
      store,
      models: keepAll(),
      now,
      config: { gate: { precheck: { enabled: true, tasks: 2, tolerance: 0.1 } } },
    });
    const version = await propose(curator, "When a graph problem appears, draw small cases first.");
    const precheck = await curator.gate({
      domain: "math",
      candidateVersion: version,
      headVersion: base,
      candidateScores: [1, 0],
      headScores: [1, 0],
      stage: "precheck",
    });
    expect(precheck).toMatchObject({ decision: "commit", stage: "precheck", details: { final: false } });
    expect((await store.getVersionInfo("math", version))!.state).toBe("proposed");
    // Another curator worker decides (nothing is remembered between calls): the pre-check travels in the request.
    const other = createCurator({ store, models: keepAll(), now, config: curator.config });
    await other.gate({
      domain: "math",
      candidateVersion: version,
      headVersion: base,
      candidateScores: fiveTimes([1, 1, 0, 1]),
      headScores: fiveTimes([1, 0, 0, 1]),
      stage: "full",
      precheck,
      rule: "paired-t",
    });
    const info = await store.getVersionInfo("math", version);
    expect(info!.state).toBe("committed");
    expect(info!.gate!.details!.precheck).toMatchObject({ stage: "precheck", candidateScore: 0.5 });
    expect(precheck.candidateScore).toBe(0.5);
  });

  it("a failed pre-check rejects the version without a full validation", async () => {
    const curator = createCurator({
      store,
      models: keepAll(),
      now,
      config: { gate: { precheck: { enabled: true } } },
    });
    const version = await propose(curator, "When a graph problem appears, draw small cases first.");
    const decision = await curator.gate({
      domain: "math",
      candidateVersion: version,
      headVersion: base,
      candidateScores: [0, 0, 0, 1],
      headScores: [1, 1, 1, 1],
      stage: "precheck",
    });
    expect(decision).toMatchObject({ decision: "reject", stage: "precheck" });
    expect((await store.getVersionInfo("math", version))!.state).toBe("rejected");
  });

  it("rejects a winning candidate whose parent is no longer the head", async () => {
    const curator = createCurator({ store, models: keepAll(), now });
    const first = await propose(curator, "When a graph problem appears, draw small cases first.");
    const second = await propose(curator, "When a digit sum is asked, compute it with code.");
    await curator.gate({
      domain: "math",
      candidateVersion: first,
      headVersion: base,
      candidateScores: fiveTimes([1]),
      headScores: fiveTimes([0]),
      stage: "full",
      rule: "paired-t",
    });
    const decision = await curator.gate({
      domain: "math",
      candidateVersion: second,
      headVersion: base,
      candidateScores: fiveTimes([1]),
      headScores: fiveTimes([0]),
      stage: "full",
      rule: "paired-t",
    });
    expect(decision.decision).toBe("reject");
    expect(decision.reason).toContain(`v${second}'s parent is no longer the head`);
    // The typed rule a runner reads to re-validate on the new head.
    expect(gateDecisionRule(decision)).toBe("stale-parent");
    expect(decision.details).toMatchObject({ rule: "stale-parent", head: first });
    expect((await store.getVersionInfo("math", second))!.state).toBe("rejected");
  });
});

describe("curator.mergeLibraries and curator.detectConflicts", () => {
  it("imports another domain's entries through consolidation: word limit, duplicates, candidates, committed", async () => {
    const models = createScriptedModels({
      consolidation: (prompt) => ({
        operations: suggestedUpdates(prompt).map((u) => ({ option: "keep", experience_id: u.temp_id })),
      }),
    });
    const curator = createCurator({ store, models, now });
    const result = await curator.mergeLibraries({ from: "web", into: "math" });
    expect(result).toMatchObject({ imported: 46, committed: true });
    const head = (await store.getHead("math"))!;
    expect(head.version).toBe(result.version);
    const imported = head.experiences.filter((e) => result.createdIds.includes(e.id));
    expect(imported.length).toBe(46);
    for (const entry of imported) {
      expect(entry.status).toBe("candidate");
      expect(entry.domain).toBe("math");
      expect(countWords(entry.text)).toBeLessThanOrEqual(32);
    }
    const info = await store.getVersionInfo("math", result.version!);
    expect(info!.gate).toMatchObject({ decision: "commit", mode: "always", stage: "none" });
    // Importing the same library again adds nothing: every entry is now a duplicate.
    const again = await curator.mergeLibraries({ from: "web", into: "math" });
    expect(again.version).toBeNull();
  });

  it("merges into a domain that does not exist yet, and imports entries given directly (a file's)", async () => {
    const curator = createCurator({
      store,
      models: createScriptedModels({
        consolidation: (prompt) => ({
          operations: suggestedUpdates(prompt).map((u) => ({ option: "keep", experience_id: u.temp_id })),
        }),
      }),
      now,
    });
    const result = await curator.mergeLibraries({
      from: {
        label: "notes.json",
        entries: [
          { id: "G0", text: "When a table spans pages, read every page before summing a column." },
          { text: "When a search fails twice, rephrase with the official name of the thing sought." },
        ],
      },
      into: "fresh",
    });
    expect(result).toMatchObject({ imported: 2, committed: true });
    const head = (await store.getHead("fresh"))!;
    expect(head.version).toBe(result.version);
    expect(head.experiences.map((e) => [e.status, e.provenance.fromOps[0]])).toEqual([
      ["candidate", "add: imported from notes.json G0 (from proposals notes.json:G0)"],
      ["candidate", "add: imported from notes.json (from proposals notes.json:1)"],
    ]);
  });

  it("finds contradictions in a library, resolves by evidence or groups, and writes them when asked", async () => {
    await store.importLibrary("toy", {
      text: JSON.stringify({
        G0: "When counting integers in a closed range, always include both endpoints.",
        G1: "When counting integers in a closed range, exclude both endpoints.",
        G2: "When a source is a forum post, always confirm it against an official page.",
        G3: "When a source is a forum post, never confirm it against an official page; it wastes steps.",
        G4: "When rounding, keep the precision the question asks for.",
      }),
      file: "toy.json",
    });
    const curator = createCurator({
      store,
      models: createScriptedModels(),
      now,
      config: { lifecycle: { minEvidence: 3 } },
    });
    await curator.credit({
      domain: "toy",
      version: base,
      observations: [0, 1, 2, 3].flatMap((index) => [
        { trajectoryId: `a${index}`, reward: 1, groupMeanReward: 0.5, shown: ["G2"], cited: [] },
        { trajectoryId: `b${index}`, reward: 0, groupMeanReward: 0.5, shown: ["G3"], cited: [] },
      ]),
    });
    const report = await curator.detectConflicts({ domain: "toy" });
    expect(report.version).toBeNull();
    expect(report.conflicts.pairs.map((p) => [p.a, p.b, p.source])).toEqual([
      ["G0", "G1", "rule"],
      ["G2", "G3", "rule"],
    ]);
    expect(report.conflicts.archived).toEqual(["G3"]);
    expect(report.conflicts.groups.map((g) => g.members)).toEqual([["G0", "G1"]]);
    const written = await curator.detectConflicts({ domain: "toy", apply: "committed" });
    const head = (await store.getHead("toy"))!;
    expect(head.version).toBe(written.version);
    const byId = new Map(head.experiences.map((e) => [e.id, e]));
    expect(byId.get("G3")!.status).toBe("archived");
    expect(byId.get("G3")!.history.at(-1)!.reason).toMatch(/^conflicts with G2, which does better/);
    expect(byId.get("G0")!.conflictGroup).toBeDefined();
    expect(byId.get("G0")!.conflictGroup).toBe(byId.get("G1")!.conflictGroup);
    // Once grouped, the pair is not reported again.
    expect((await curator.detectConflicts({ domain: "toy" })).conflicts.pairs).toEqual([]);
  });
});
