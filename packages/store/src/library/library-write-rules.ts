import {
  experienceIdSchema,
  formatZodIssues,
  type GateDecision,
  gateDecisionSchema,
  staleParentDetails,
  TfgrpoError,
} from "@tfgrpo/protocol";
import { z } from "zod";
import type { ParsedLibraryFile } from "../formats/library-file.js";
import type { StatsDelta } from "../library-store.js";
import { parseRecord } from "../sql/stored-json.js";
import { experienceOrdinal } from "./plan-operations.js";

/** The checks every library backend makes before it writes (one wording of each error for every backend). */

const statsDeltaSchema = z.object({
  id: experienceIdSchema,
  shown: z.number().int().nonnegative().optional(),
  success: z.number().nonnegative().finite().optional(),
  sumDelta: z.number().finite().optional(),
  lastUsedVersion: z.number().int().nonnegative().nullable().optional(),
  contrast: z
    .object({
      n: z.number().int().nonnegative(),
      sum: z.number().finite(),
      sumSquares: z.number().nonnegative().finite(),
    })
    .optional(),
});

export type ValidStatsDelta = z.infer<typeof statsDeltaSchema>;

/** Every delta checked before anything is written; a bad one is `invalid_input` naming its index. */
export function parseStatsDeltas(domain: string, deltas: readonly StatsDelta[]): ValidStatsDelta[] {
  const problems: string[] = [];
  const parsed = deltas.map((delta, index) => {
    const result = statsDeltaSchema.safeParse(delta);
    if (!result.success) problems.push(`deltas[${index}]: ${formatZodIssues(result.error.issues)}`);
    return result.data;
  });
  if (problems.length > 0) {
    throw new TfgrpoError("invalid_input", `invalid stats for ${domain}: ${problems.join("; ")}`, {
      details: { domain, problems },
    });
  }
  return parsed as ValidStatsDelta[];
}

export function unknownStatsIdsError(domain: string, unknown: string[]): TfgrpoError {
  return new TfgrpoError(
    "not_found",
    `cannot update stats of ${domain}: unknown ids ${unknown.join(", ")}; nothing updated`,
    { details: { domain, unknown } },
  );
}

export function staleParentError(
  domain: string,
  version: number | null,
  parent: number | null,
  head: number | null,
): TfgrpoError {
  const name = (v: number | null) => (v === null ? "the empty library" : `v${v}`);
  const what = version === null ? "cannot commit new version" : `cannot commit v${version}`;
  return new TfgrpoError(
    "conflict",
    `${what} of ${domain}: it is based on ${name(parent)} but the head is now ${name(head)}; ` +
      "re-apply on the head, or force the commit",
    // Typed details (`staleParentOf`): re-applying callers read them, never the message.
    { details: staleParentDetails({ domain, version, parent, head }) },
  );
}

export function parseGate(gate: GateDecision): GateDecision {
  return parseRecord(gateDecisionSchema, gate, "gate decision");
}

export function immutableVersionError(
  domain: string,
  version: number,
  state: string,
  wanted: "committed" | "rejected",
): TfgrpoError {
  return new TfgrpoError(
    "conflict",
    `cannot mark ${domain} v${version} ${wanted}: it is already ${state} (versions are immutable; apply again)`,
    { details: { domain, version, state } },
  );
}

export function rollbackToUncommittedError(domain: string, version: number, state: string): TfgrpoError {
  return new TfgrpoError(
    "invalid_input",
    `cannot roll ${domain} back to v${version}: it was ${state}, never committed`,
    { details: { domain, version, state } },
  );
}

/** An exact restore may keep an id the domain handed out only for the head entry of that id. */
export function refuseReusedIds(
  domain: string,
  parsed: ParsedLibraryFile,
  nextId: number,
  headIds: ReadonlySet<string>,
  file: string,
): void {
  const reused = parsed.entries
    .map((entry) => entry.id)
    .filter((id) => experienceOrdinal(id) < nextId && !headIds.has(id));
  if (reused.length > 0) {
    throw new TfgrpoError(
      "conflict",
      `${file}: ${reused.slice(0, 5).join(", ")} ${reused.length === 1 ? "was" : "were"} handed out before in ${domain} for entries not in its head; ids are never reused: restore into a fresh database, or import without --replace`,
      { details: { domain, file, reused } },
    );
  }
}

/**
 * A contrast belongs to the wording it was measured on (the entry's text in the version its rollouts read): the
 * versions and ordinals whose texts a batch of deltas needs, keyed for `measuredText`.
 */
export function contrastVersions(deltas: readonly ValidStatsDelta[]): Map<number, number[]> {
  const versions = new Map<number, number[]>();
  for (const delta of deltas) {
    if (!delta.contrast || delta.contrast.n === 0 || delta.lastUsedVersion == null) continue;
    const ordinals = versions.get(delta.lastUsedVersion) ?? [];
    ordinals.push(experienceOrdinal(delta.id));
    versions.set(delta.lastUsedVersion, ordinals);
  }
  return versions;
}

/** `${ordinal}/${version}`: the key of an entry's text in a version. */
export function versionTextKey(ordinal: number, version: number): string {
  return `${ordinal}/${version}`;
}

/** The text a delta's contrast was measured on, or null (no contrast, or no version to read it from). */
export function measuredText(texts: ReadonlyMap<string, string>, delta: ValidStatsDelta): string | null {
  if (!delta.contrast || delta.contrast.n === 0 || delta.lastUsedVersion == null) return null;
  return texts.get(versionTextKey(experienceOrdinal(delta.id), delta.lastUsedVersion)) ?? null;
}
