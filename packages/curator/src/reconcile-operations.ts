import type { Experience, Operation } from "@tfgrpo/protocol";
import { normalizeText } from "./text-tokens.js";
import { isVagueLesson } from "./vague-lesson.js";

/**
 * Makes an operation set from several sources (model chunks, deterministic merges) consistent before the store sees
 * it: the store refuses a set in which one id is both modified and deleted, or merged twice. The first operation on
 * an id wins; a later rewrite of a claimed id is kept as a new candidate (nothing lost), a later delete is dropped, a
 * merge loses the claimed sources. Keeps apply only to ids nothing else touched. Duplicate and vague additions (and
 * vague rewrites) are dropped.
 */
export function reconcileOperations(
  operations: readonly Operation[],
  library: ReadonlyMap<string, Experience>,
  options: { minContentWords?: number } = {},
): { operations: Operation[]; notes: string[] } {
  const notes: string[] = [];
  const vague = (text: string) => {
    if (!isVagueLesson(text, options.minContentWords ?? 0)) return false;
    notes.push(`too vague to act on, dropped: "${text.slice(0, 60)}"`);
    return true;
  };
  const out: Operation[] = [];
  const claimed = new Map<string, string>();
  const texts = new Set<string>();
  for (const entry of library.values()) if (entry.status !== "archived") texts.add(normalizeText(entry.text));
  const addText = (text: string, reason: string) => {
    const key = normalizeText(text);
    if (texts.has(key)) {
      notes.push(`an addition repeats an existing text, dropped: "${text.slice(0, 60)}"`);
      return;
    }
    texts.add(key);
    out.push({ op: "add", text, status: "candidate", reason });
  };
  for (const op of operations) {
    switch (op.op) {
      case "add":
        if (vague(op.text)) break;
        if (texts.has(normalizeText(op.text))) {
          notes.push(`an addition repeats an existing text, dropped: "${op.text.slice(0, 60)}"`);
          break;
        }
        texts.add(normalizeText(op.text));
        out.push(op);
        break;
      case "modify": {
        if (op.text !== undefined && vague(op.text)) break;
        const by = claimed.get(op.id);
        if (by) {
          if (op.text !== undefined) {
            notes.push(`${op.id} already ${by}: its other rewrite is kept as a new candidate`);
            addText(op.text, `alternative rewrite of ${op.id}: ${op.reason}`);
          } else notes.push(`${op.id} already ${by}: modify dropped`);
          break;
        }
        claimed.set(op.id, "modified");
        if (op.text !== undefined) texts.add(normalizeText(op.text));
        out.push(op);
        break;
      }
      case "delete": {
        const by = claimed.get(op.id);
        if (by) {
          notes.push(`${op.id} already ${by}: delete dropped`);
          break;
        }
        claimed.set(op.id, "deleted");
        out.push(op);
        break;
      }
      case "merge": {
        const free = op.ids.filter((id) => !claimed.has(id));
        const lost = op.ids.filter((id) => claimed.has(id));
        if (lost.length > 0)
          notes.push(`merge of ${op.ids.join(", ")}: ${lost.join(", ")} already changed, left out`);
        if (free.length >= 2) {
          for (const id of free) claimed.set(id, "merged");
          texts.add(normalizeText(op.text));
          out.push({ ...op, ids: free });
        } else if (free.length === 1) {
          claimed.set(free[0]!, "modified");
          texts.add(normalizeText(op.text));
          out.push({ op: "modify", id: free[0]!, text: op.text, reason: op.reason });
        } else addText(op.text, op.reason);
        break;
      }
      case "keep":
        break;
    }
  }
  const kept = new Set<string>();
  for (const op of operations) {
    if (op.op !== "keep" || claimed.has(op.id) || kept.has(op.id)) continue;
    kept.add(op.id);
    out.push(op);
  }
  return { operations: out, notes };
}
