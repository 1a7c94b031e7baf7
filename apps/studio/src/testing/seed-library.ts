import type { Operation } from "@tfgrpo/protocol";
import type { Store } from "@tfgrpo/store";

export const seededRunId = "run-seeded-1";

/**
 * A small library with everything the studio shows, written through the store API as a run would: v1 (entries in
 * every state, a conflict group the curator flagged, an entry whose text is markup), then v2 made by a learning run
 * (a rewrite, an addition, an archival) with its step record and gate decision; entries carry credit as contrasts (one
 * that helps, read under both versions, one unclear, one that hurts, the rest none). Returns the versions.
 */
export async function seedStudioLibrary(
  store: Store,
  now = new Date("2026-03-01T10:00:00Z"),
): Promise<{ v1: number; v2: number }> {
  const first: Operation[] = [
    {
      op: "add",
      text: "When a fraction appears, reduce it to lowest terms before comparing.",
      status: "active",
      reason: "seeded",
    },
    {
      op: "add",
      text: "When the question asks for a percentage, answer with the percent sign.",
      status: "candidate",
      reason: "seeded",
    },
    {
      op: "add",
      text: "When dividing by a variable, check that the variable can be zero.",
      status: "active",
      reason: "seeded",
    },
    {
      op: "add",
      text: '<script>window.__pwned = true</script><img src=x onerror="window.__pwned = true"> When a unit is given, keep it in the answer.',
      status: "active",
      reason: "seeded",
    },
    {
      op: "add",
      text: "When rounding a final answer, always round half up to the nearest integer.",
      status: "active",
      conflictGroup: "cg-rounding",
      reason: "may contradict G5",
    },
    {
      op: "add",
      text: "When rounding a final answer, never round half up; round half to even.",
      status: "active",
      conflictGroup: "cg-rounding",
      reason: "may contradict G4",
    },
    {
      op: "add",
      text: "When a probability is asked, check that it lies between zero and one.",
      status: "candidate",
      reason: "seeded",
    },
  ];
  const v1 = await store.applyOperations("math", first, {
    parent: null,
    state: "committed",
    message: "seeded library",
    now,
  });
  // Credit as the contrast (shown minus withheld, one difference per group): G0 helps (4 groups on v1's wording, 6 on
  // v2's below), the candidate G1 is still unclear, G4 hurts, the rest have none yet.
  await store.updateStats("math", [
    {
      id: "G0",
      shown: 12,
      success: 9,
      sumDelta: 1.8,
      lastUsedVersion: 1,
      contrast: { n: 4, sum: 1, sumSquares: 0.5 },
    },
    { id: "G1", shown: 5, success: 4, lastUsedVersion: 1, contrast: { n: 3, sum: 0.75, sumSquares: 0.375 } },
    {
      id: "G4",
      shown: 6,
      success: 3,
      sumDelta: 0.1,
      lastUsedVersion: 1,
      contrast: { n: 6, sum: -1.5, sumSquares: 0.75 },
    },
    { id: "G5", shown: 6, success: 4, sumDelta: 0.2 },
  ]);
  await store.createRun({
    id: seededRunId,
    kind: "learn",
    domain: "math",
    status: "finished",
    config: { simulated: true },
    startedAt: "2026-03-01T10:05:00.000Z",
    finishedAt: "2026-03-01T10:20:00.000Z",
  });
  const second: Operation[] = [
    {
      op: "modify",
      id: "G0",
      text: "When a fraction appears, reduce it fully before comparing any values.",
      reason: "clearer wording from step 1",
    },
    {
      op: "add",
      text: "When an answer is a ratio, simplify both parts by their greatest common divisor.",
      status: "candidate",
      reason: "group g1 contrast",
    },
    { op: "delete", id: "G2", reason: "never selected in 20 versions" },
  ];
  const v2 = await store.applyOperations("math", second, {
    parent: v1.version.version,
    state: "committed",
    runId: seededRunId,
    message: "consolidation of 3 proposals: 1 modify, 1 add, 1 delete",
    gate: {
      decision: "commit",
      candidateScore: 0.71,
      headScore: 0.62,
      margin: 0,
      mode: "better-by-margin",
      tasks: 30,
      stage: "full",
      reason: "candidate 0.710 vs head 0.620 on 30 validation tasks",
    },
    now: new Date(now.getTime() + 60_000),
  });
  await store.updateStats("math", [
    // The rewrite of G0 in v2 started its contrast again (a new wording is a new lesson): these six groups are all of it.
    { id: "G0", lastUsedVersion: v2.version.version, contrast: { n: 6, sum: 1.5, sumSquares: 0.75 } },
  ]);
  await store.putRunState(seededRunId, "step/1", {
    epoch: 1,
    step: 1,
    tasks: 8,
    rollouts: 40,
    trainReward: 0.55,
    groups: 8,
    skippedGroups: 2,
    proposals: 5,
    operations: 3,
    headBefore: 1,
    candidateVersion: 2,
    headAfter: 2,
    librarySize: 7,
    libraryStates: { active: 4, candidate: 3 },
    candidateScore: 0.71,
    headScore: 0.62,
    baselineScore: null,
    decision: "commit",
    gateReason: "candidate 0.710 vs head 0.620 on 30 validation tasks",
    meanToolCalls: 1.2,
    meanTokens: 900,
    usageByRole: {},
  });
  await store.applyOperations(
    "web",
    [
      {
        op: "add",
        text: "When a page fails to load, retry once before searching again.",
        status: "active",
        reason: "seeded",
      },
    ],
    { parent: null, state: "committed", now },
  );
  return { v1: v1.version.version, v2: v2.version.version };
}
