import {
  type Experience,
  formatZodIssues,
  type Operation,
  operationSchema,
  TfgrpoError,
} from "@tfgrpo/protocol";

export interface OperationProblem {
  index: number;
  /** The id(s) the operation names ("G1+G4" for a merge), null for an add. */
  id: string | null;
  op: string;
  problem: string;
}

export interface ValidateOperationsInput {
  domain: string;
  parent: number | null;
  ops: readonly unknown[];
  /** The parent version's entry with this id, if any. */
  lookup: (id: string) => Experience | undefined;
}

/**
 * Checks a whole operation set before anything is written: each op against its schema, each id against the parent
 * version, and every pair of ops naming the same id against each other. Any problem refuses the whole set with one
 * `invalid_operations` error listing every bad op by index and id, so a curator can fix them all in one retry.
 */
export function validateOperations(input: ValidateOperationsInput): Operation[] {
  const problems: OperationProblem[] = [];
  const valid: Array<{ index: number; op: Operation }> = [];

  input.ops.forEach((raw, index) => {
    const parsed = operationSchema.safeParse(raw);
    if (!parsed.success) {
      const described = describeRaw(raw);
      problems.push({ index, ...described, problem: formatZodIssues(parsed.error.issues) });
      return;
    }
    valid.push({ index, op: parsed.data });
  });

  for (const { index, op } of valid) {
    const problem = checkTargets(op, input.lookup);
    if (problem) problems.push({ index, id: namedIds(op), op: op.op, problem });
  }

  problems.push(...findContradictions(valid));

  if (problems.length > 0) {
    problems.sort((a, b) => a.index - b.index);
    const where = `${input.domain} (on ${input.parent === null ? "the empty library" : `v${input.parent}`})`;
    const lines = problems.map((p) => `op[${p.index}] ${p.op}${p.id ? ` ${p.id}` : ""}: ${p.problem}`);
    throw new TfgrpoError(
      "invalid_operations",
      `invalid operations for ${where}, nothing applied: ${lines.join("; ")}`,
      { details: { domain: input.domain, parent: input.parent, problems } },
    );
  }
  return valid.map((v) => v.op);
}

/** Every id an op set names, valid or not: the entries a backend must load to validate it. */
export function referencedIds(ops: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const raw of ops) {
    if (typeof raw !== "object" || raw === null) continue;
    const record = raw as { id?: unknown; ids?: unknown };
    if (typeof record.id === "string") ids.add(record.id);
    if (Array.isArray(record.ids)) for (const id of record.ids) if (typeof id === "string") ids.add(id);
  }
  return [...ids];
}

function describeRaw(raw: unknown): { id: string | null; op: string } {
  if (typeof raw !== "object" || raw === null) return { id: null, op: "(not an object)" };
  const record = raw as { op?: unknown; id?: unknown; ids?: unknown };
  const op = typeof record.op === "string" ? record.op : "(no op)";
  if (typeof record.id === "string") return { id: record.id, op };
  if (Array.isArray(record.ids)) return { id: record.ids.map(String).join("+"), op };
  return { id: null, op };
}

function namedIds(op: Operation): string | null {
  if (op.op === "add") return null;
  if (op.op === "merge") return op.ids.join("+");
  return op.id;
}

function checkTargets(op: Operation, lookup: (id: string) => Experience | undefined): string | null {
  switch (op.op) {
    case "add":
      return null;
    case "modify": {
      const entry = lookup(op.id);
      if (!entry) return `unknown id ${op.id}`;
      // An archived entry may only be brought back (a status other than archived); editing it in place is a mistake.
      if (entry.status === "archived" && (op.status === undefined || op.status === "archived")) {
        return `${op.id} is archived (a modify may only restore it by setting another status)`;
      }
      return null;
    }
    case "delete":
    case "keep":
      return lookup(op.id) ? null : `unknown id ${op.id}`;
    case "merge": {
      const seen = new Set<string>();
      const issues: string[] = [];
      for (const id of op.ids) {
        if (seen.has(id)) issues.push(`${id} is listed twice`);
        seen.add(id);
        const entry = lookup(id);
        if (!entry) issues.push(`unknown id ${id}`);
        else if (entry.status === "archived") issues.push(`${id} is archived`);
      }
      return issues.length > 0 ? issues.join(", ") : null;
    }
  }
}

type Claim = { index: number; op: Operation };

function findContradictions(valid: readonly Claim[]): OperationProblem[] {
  const byId = new Map<string, Claim[]>();
  for (const claim of valid) {
    const ids = claim.op.op === "merge" ? claim.op.ids : claim.op.op === "add" ? [] : [claim.op.id];
    for (const id of new Set(ids)) {
      const list = byId.get(id) ?? [];
      list.push(claim);
      byId.set(id, list);
    }
  }
  const problems: OperationProblem[] = [];
  for (const [id, claims] of byId) {
    for (let i = 0; i < claims.length; i++) {
      for (let j = i + 1; j < claims.length; j++) {
        const a = claims[i]!;
        const b = claims[j]!;
        const why = contradiction(id, a.op, b.op);
        if (!why) continue;
        problems.push({
          index: a.index,
          id: namedIds(a.op),
          op: a.op.op,
          problem: `contradicts op[${b.index}] ${b.op.op} ${namedIds(b.op)}: ${why}`,
        });
        problems.push({
          index: b.index,
          id: namedIds(b.op),
          op: b.op.op,
          problem: `contradicts op[${a.index}] ${a.op.op} ${namedIds(a.op)}: ${why}`,
        });
      }
    }
  }
  return problems;
}

/** Why two ops on the same id cannot both apply, or null when they agree (identical or complementary). */
function contradiction(id: string, a: Operation, b: Operation): string | null {
  if (a.op === "merge" && b.op === "merge") return `${id} is a source of both merges`;
  if (a.op === "merge" || b.op === "merge") {
    return `${id} is a merge source and also ${verb(a.op === "merge" ? b.op : a.op)}`;
  }
  if (a.op === b.op) {
    if (a.op !== "modify" || b.op !== "modify") return null; // two deletes or two keeps agree
    const fields = (["text", "status", "scope", "conflictGroup"] as const).filter(
      (field) =>
        a[field] !== undefined &&
        b[field] !== undefined &&
        JSON.stringify(a[field]) !== JSON.stringify(b[field]),
    );
    return fields.length > 0 ? `both modify ${id} with a different ${fields.join(", ")}` : null;
  }
  return `${id} cannot be both ${verb(a.op)} and ${verb(b.op)}`;
}

function verb(op: Operation["op"]): string {
  return { add: "added", modify: "modified", delete: "deleted", merge: "merged", keep: "kept" }[op];
}
