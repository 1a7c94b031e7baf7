import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Experience,
  type ExperienceStatus,
  emptyExperienceStats,
  safeParseJson,
} from "@tfgrpo/protocol";
import { z } from "zod";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/** The shared data directory (`../shared/data` next to the checkout; TFGRPO_SHARED_DATA overrides). */
export function sharedDataDir(): string {
  return process.env.TFGRPO_SHARED_DATA ?? path.resolve(repoRoot, "../shared/data");
}

/**
 * A real library from shared/data/youtu-agent-libraries (`{"G0": "text", ...}`, written by DeepSeek with the
 * paper's reference implementation) as `[id, text]` pairs in id order.
 */
export function readRealLibrary(domain: "math" | "web"): [string, string][] {
  const file = path.join(sharedDataDir(), "youtu-agent-libraries", `${domain}.json`);
  const parsed = safeParseJson(readFileSync(file, "utf8"), z.record(z.string(), z.string()));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error}`);
  return Object.entries(parsed.value).sort((a, b) => Number(a[0].slice(1)) - Number(b[0].slice(1)));
}

export function makeExperience(
  id: string,
  text: string,
  overrides: Partial<Omit<Experience, "id" | "text">> = {},
): Experience {
  return {
    id,
    domain: "math",
    text,
    status: "active",
    stats: emptyExperienceStats(),
    provenance: { runId: null, version: 0, fromOps: [] },
    history: [],
    createdAt: "2025-11-01T00:00:00.000Z",
    updatedAt: "2025-11-01T00:00:00.000Z",
    ...overrides,
  };
}

/** A real library as Experience records (all `status`, default active). */
export function realExperiences(domain: "math" | "web", status: ExperienceStatus = "active"): Experience[] {
  return readRealLibrary(domain).map(([id, text]) => makeExperience(id, text, { domain, status }));
}
