import {
  type Experience,
  type ExperienceStats,
  type ExperienceStatus,
  emptyExperienceStats,
  type Operation,
} from "@tfgrpo/protocol";

export interface PlanOperationsInput {
  domain: string;
  /** The version being created. */
  version: number;
  /** The domain's id counter: the next new entry is `G<nextOrdinal>`. */
  nextOrdinal: number;
  runId: string | null;
  /** ISO time of the change. */
  now: string;
  /** Already validated (see validateOperations). */
  ops: readonly Operation[];
  lookup: (id: string) => Experience | undefined;
}

export interface OperationPlan {
  /** New or changed entries of the new version, in the order they were touched. Unlisted entries are unchanged. */
  changed: Experience[];
  created: Array<{ index: number; id: string }>;
  nextOrdinal: number;
  /** Stats that new entries start with (a merged entry inherits the sum of its sources'). */
  initialStats: Array<{ id: string; text: string; stats: ExperienceStats }>;
}

/**
 * Order used to pick a merged entry's status: an entry that has proven itself (active) beats one that once did and is
 * being watched (probation), which beats one never validated (candidate).
 */
const statusRank: Record<ExperienceStatus, number> = { active: 3, probation: 2, candidate: 1, archived: 0 };

export function experienceOrdinal(id: string): number {
  return Number(id.slice(1));
}

export function experienceId(ordinal: number): string {
  return `G${ordinal}`;
}

/** What a validated operation set does to the parent version: pure, so every backend applies ops the same way. */
export function planOperations(input: PlanOperationsInput): OperationPlan {
  const { version, now, runId, domain } = input;
  const working = new Map<string, Experience>();
  const changed = new Set<string>();
  const created: OperationPlan["created"] = [];
  const initialStats: OperationPlan["initialStats"] = [];
  let nextOrdinal = input.nextOrdinal;

  const get = (id: string): Experience => {
    let entry = working.get(id);
    if (!entry) {
      const original = input.lookup(id);
      if (!original) throw new Error(`planOperations: ${id} is not in the parent version (validate first)`);
      entry = structuredClone(original);
      working.set(id, entry);
    }
    return entry;
  };
  const setStatus = (entry: Experience, to: ExperienceStatus, reason: string) => {
    if (entry.status === to) return;
    entry.history.push({ at: now, version, from: entry.status, to, reason });
    entry.status = to;
  };
  const touch = (entry: Experience) => {
    entry.updatedAt = now;
    changed.add(entry.id);
  };
  const create = (
    index: number,
    fields: Pick<Experience, "text" | "status" | "scope" | "conflictGroup">,
    fromOps: string[],
    reason: string,
  ) => {
    const id = experienceId(nextOrdinal++);
    const entry: Experience = {
      id,
      domain,
      text: fields.text,
      status: fields.status,
      ...(fields.scope ? { scope: fields.scope } : {}),
      ...(fields.conflictGroup !== undefined ? { conflictGroup: fields.conflictGroup } : {}),
      stats: emptyExperienceStats(),
      provenance: { runId, version, fromOps },
      history: [{ at: now, version, from: null, to: fields.status, reason }],
      createdAt: now,
      updatedAt: now,
    };
    working.set(id, entry);
    changed.add(id);
    created.push({ index, id });
    return entry;
  };

  input.ops.forEach((op, index) => {
    switch (op.op) {
      case "add":
        create(
          index,
          {
            text: op.text,
            status: op.status ?? "candidate",
            scope: op.scope,
            conflictGroup: op.conflictGroup,
          },
          [`add: ${op.reason}`],
          op.reason,
        );
        return;
      case "modify": {
        const entry = get(op.id);
        const before = JSON.stringify(entry);
        // A rewritten lesson keeps its stats row, but its contrast belongs to the wording it was measured on: the
        // store reads a contrast only for the text it was measured with (`contrast_text`).
        if (op.text !== undefined) entry.text = op.text;
        if (op.scope !== undefined) entry.scope = op.scope;
        if (op.conflictGroup === null) delete entry.conflictGroup;
        else if (op.conflictGroup !== undefined) entry.conflictGroup = op.conflictGroup;
        if (op.status !== undefined) setStatus(entry, op.status, op.reason);
        // A repeated identical modify changes nothing and must not bump updatedAt.
        if (JSON.stringify(entry) !== before) touch(entry);
        return;
      }
      case "delete": {
        const entry = get(op.id);
        if (entry.status === "archived") return;
        setStatus(entry, "archived", op.reason);
        touch(entry);
        return;
      }
      case "merge": {
        const sources = op.ids.map(get);
        const best = sources.reduce((a, b) => (statusRank[b.status] > statusRank[a.status] ? b : a));
        const groups = new Set(sources.map((s) => s.conflictGroup));
        const conflictGroup = groups.size === 1 ? sources[0]!.conflictGroup : undefined;
        const merged = create(
          index,
          { text: op.text, status: op.status ?? best.status, scope: op.scope, conflictGroup },
          [...op.ids],
          op.reason,
        );
        // The merged rule is the sources' evidence under a new name, so it inherits their credit.
        const stats = sources.reduce<ExperienceStats>(
          (sum, s) => ({
            shown: sum.shown + s.stats.shown,
            success: sum.success + s.stats.success,
            sumDelta: sum.sumDelta + s.stats.sumDelta,
            lastUsedVersion: maxNullable(sum.lastUsedVersion, s.stats.lastUsedVersion),
          }),
          emptyExperienceStats(),
        );
        merged.stats = stats;
        initialStats.push({ id: merged.id, text: merged.text, stats });
        for (const source of sources) {
          setStatus(source, "archived", `merged into ${merged.id}`);
          touch(source);
        }
        return;
      }
      case "keep":
        return;
    }
  });

  return {
    changed: [...changed].map((id) => working.get(id)!),
    created,
    nextOrdinal,
    initialStats,
  };
}

function maxNullable(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
