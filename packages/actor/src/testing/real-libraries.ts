import type { Experience, ExperienceStatus } from "@tfgrpo/protocol";
import { makeExperience, readRealLibrary as readRealLibraryRecord } from "@tfgrpo/protocol/testing";

/**
 * A real library vendored in test-data/youtu-agent-libraries (`{"G0": "text", ...}`, written by DeepSeek with the
 * paper's reference implementation; read through `@tfgrpo/protocol/testing`) as `[id, text]` pairs in id order.
 */
export function readRealLibrary(domain: "math" | "web"): [string, string][] {
  return Object.entries(readRealLibraryRecord(domain)).sort(
    (a, b) => Number(a[0].slice(1)) - Number(b[0].slice(1)),
  );
}

/** A real library as Experience records (all `status`, default active). */
export function realExperiences(domain: "math" | "web", status: ExperienceStatus = "active"): Experience[] {
  return readRealLibrary(domain).map(([id, text]) => makeExperience({ id, text, domain, status }));
}
