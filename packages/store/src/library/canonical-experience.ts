import type { Experience } from "@tfgrpo/protocol";

/**
 * An experience with its keys in one fixed order and optional fields omitted when absent, so that every path
 * (apply, import, read back) yields byte-identical JSON for equal content: exports round-trip exactly.
 */
export function canonicalExperience(e: Experience): Experience {
  return {
    id: e.id,
    domain: e.domain,
    text: e.text,
    status: e.status,
    ...(e.scope !== undefined ? { scope: canonicalScope(e.scope) } : {}),
    ...(e.conflictGroup !== undefined ? { conflictGroup: e.conflictGroup } : {}),
    stats: {
      shown: e.stats.shown,
      success: e.stats.success,
      sumDelta: e.stats.sumDelta,
      lastUsedVersion: e.stats.lastUsedVersion,
    },
    provenance: {
      runId: e.provenance.runId,
      version: e.provenance.version,
      fromOps: [...e.provenance.fromOps],
    },
    history: e.history.map((h) => ({
      at: h.at,
      version: h.version,
      from: h.from,
      to: h.to,
      reason: h.reason,
    })),
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

function canonicalScope(scope: NonNullable<Experience["scope"]>): NonNullable<Experience["scope"]> {
  return {
    ...(scope.when !== undefined ? { when: scope.when } : {}),
    ...(scope.whenNot !== undefined ? { whenNot: scope.whenNot } : {}),
  };
}
