import { type Experience, emptyExperienceStats } from "../schemas/experience.js";

/** An Experience record with sensible defaults, for tests: `makeExperience({ id: "G3", text: "..." })`. */
export function makeExperience(overrides: Partial<Experience> & { id: string }): Experience {
  const status = overrides.status ?? "active";
  return {
    domain: "math",
    text: `When testing, entry ${overrides.id} applies.`,
    status,
    stats: emptyExperienceStats(),
    provenance: { runId: null, version: 0, fromOps: [] },
    history: [{ at: "2026-01-01T00:00:00.000Z", version: 0, from: null, to: status, reason: "fixture" }],
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}
