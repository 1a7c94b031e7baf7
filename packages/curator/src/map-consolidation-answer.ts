import type { Experience, Operation } from "@tfgrpo/protocol";
import type { Suggestion } from "./consolidation-prepass.js";
import type { ConsolidationAnswer } from "./consolidation-prompt.js";
import { contentStems, normalizeText } from "./text-tokens.js";
import { enforceWordLimit } from "./word-limit.js";

export interface MappedAnswer {
  operations: Operation[];
  notes: string[];
  /** Suggestions the answer neither names nor writes out again (the model left them out). */
  leftOut?: Suggestion[];
}

/** `{ scope: { whenNot } }` for an operation, or nothing: the model's clause first, else the one its sources gave. */
function scopeFrom(...clauses: (string | null | undefined)[]): { scope?: { whenNot: string } } {
  const whenNot = clauses.map((clause) => clause?.replace(/\s+/g, " ").trim()).find((clause) => clause);
  return whenNot ? { scope: { whenNot } } : {};
}

/** Share of content stems two texts have in common (Jaccard): how a rewritten-out suggestion is recognised. */
function sharedStems(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const stem of a) if (b.has(stem)) shared++;
  return shared / Math.max(1, new Set([...a, ...b]).size);
}

function sourcesNote(suggestions: readonly Suggestion[]): string {
  const sources = suggestions.flatMap((suggestion) => suggestion.sources);
  if (sources.length === 0) return "";
  const shown = sources.slice(0, 3).join(", ");
  return ` (from proposals ${shown}${sources.length > 3 ? ` and ${sources.length - 3} more` : ""})`;
}

/**
 * Turns the model's consolidation answer into protocol operations on library ids. Suggestion ids (P4) are resolved:
 * a modify or keep of an added suggestion is an add, a merge folds suggestions into the library entries it names
 * (a merge of suggestions only is an add), a delete of a suggestion just declines it. Unknown or archived ids are
 * dropped per operation, texts over the word limit are shortened, and each repair is noted.
 */
export function mapConsolidationAnswer(input: {
  answer: ConsolidationAnswer;
  suggestions: readonly Suggestion[];
  library: ReadonlyMap<string, Experience>;
  wordLimit: number;
}): MappedAnswer {
  const operations: Operation[] = [];
  const notes: string[] = [];
  const byTemp = new Map(input.suggestions.map((suggestion) => [suggestion.tempId, suggestion]));
  const liveId = (id: string) => {
    const entry = input.library.get(id);
    return entry && entry.status !== "archived" ? entry : undefined;
  };
  const fit = (text: string, where: string) => {
    const limited = enforceWordLimit(text, input.wordLimit);
    if (limited.shortened) notes.push(`${where}: text over ${input.wordLimit} words, shortened`);
    return limited.text;
  };

  const referenced = new Set<string>();
  const answerTexts: Set<string>[] = [];
  for (const answer of input.answer.operations) {
    if ("experience_id" in answer) referenced.add(answer.experience_id.trim());
    if ("experience_ids" in answer) for (const id of answer.experience_ids) referenced.add(id.trim());
    if ("experience" in answer) answerTexts.push(new Set(contentStems(answer.experience)));
  }
  // A model may also take a suggestion by writing it out again (an add with its text) instead of naming its id.
  const suggestionStems = new Map(
    input.suggestions.map((suggestion) => [suggestion, new Set(contentStems(suggestion.text ?? ""))]),
  );
  const writtenOut = (suggestion: Suggestion) =>
    suggestion.text !== undefined &&
    answerTexts.some((text) => sharedStems(suggestionStems.get(suggestion)!, text) >= 0.6);
  /** The suggestion an add writes out again, so the add keeps that suggestion's scope. */
  const writtenOutOf = (text: string) => {
    const stems = new Set(contentStems(text));
    return input.suggestions.find(
      (suggestion) =>
        suggestion.text !== undefined && sharedStems(suggestionStems.get(suggestion)!, stems) >= 0.6,
    );
  };
  input.answer.operations.forEach((answer, index) => {
    const where = `operation ${index + 1} (${answer.option})`;
    const reason = answer.reason?.trim() || `curator ${answer.option}`;
    switch (answer.option) {
      case "add": {
        operations.push({
          op: "add",
          text: fit(answer.experience, where),
          status: "candidate",
          ...scopeFrom(answer.when_not, writtenOutOf(answer.experience)?.whenNot),
          reason,
        });
        return;
      }
      case "keep":
      case "modify": {
        const id = answer.experience_id.trim();
        const suggestion = byTemp.get(id);
        if (suggestion) {
          if (suggestion.option === "delete") {
            if (answer.option === "keep") {
              // Keeping a delete suggestion means agreeing with it.
              operations.push({
                op: "delete",
                id: suggestion.targetId!,
                reason: `${suggestion.reason}${sourcesNote([suggestion])}`,
              });
            } else notes.push(`${where}: ${id} is a delete suggestion and cannot be modified, ignored`);
            return;
          }
          const text = answer.option === "modify" ? answer.experience : suggestion.text!;
          const why = `${answer.option === "modify" ? reason : suggestion.reason}${sourcesNote([suggestion])}`;
          const scope = scopeFrom(answer.option === "modify" ? answer.when_not : null, suggestion.whenNot);
          if (suggestion.option === "modify" && liveId(suggestion.targetId!)) {
            operations.push({
              op: "modify",
              id: suggestion.targetId!,
              text: fit(text, where),
              ...scope,
              reason: why,
            });
          } else {
            operations.push({
              op: "add",
              text: fit(text, where),
              status: "candidate",
              ...scope,
              reason: why,
            });
          }
          return;
        }
        const entry = liveId(id);
        if (!entry) {
          notes.push(`${where}: ${id} is not a live library entry or a suggestion, ignored`);
          return;
        }
        if (answer.option === "keep") {
          operations.push({ op: "keep", id, reason });
          return;
        }
        const text = fit(answer.experience, where);
        if (normalizeText(text) === normalizeText(entry.text)) {
          notes.push(`${where}: ${id} text unchanged, ignored`);
          return;
        }
        operations.push({ op: "modify", id, text, ...scopeFrom(answer.when_not), reason });
        return;
      }
      case "delete": {
        const id = answer.experience_id.trim();
        const suggestion = byTemp.get(id);
        if (suggestion) {
          notes.push(`${where}: suggestion ${id} declined${sourcesNote([suggestion])}`);
          return;
        }
        if (!liveId(id)) {
          notes.push(`${where}: ${id} is not a live library entry, ignored`);
          return;
        }
        operations.push({ op: "delete", id, reason });
        return;
      }
      case "merge": {
        const ids = new Set<string>();
        const folded: Suggestion[] = [];
        for (const raw of answer.experience_ids) {
          const id = raw.trim();
          const suggestion = byTemp.get(id);
          if (suggestion) {
            folded.push(suggestion);
            // A merge that includes "modify G3" or "delete G3" is about G3 itself.
            if (suggestion.targetId && liveId(suggestion.targetId)) ids.add(suggestion.targetId);
          } else if (liveId(id)) ids.add(id);
          else
            notes.push(`${where}: ${id} is not a live library entry or a suggestion, left out of the merge`);
        }
        const text = fit(answer.experience, where);
        const why = `${reason}${sourcesNote(folded)}`;
        const list = [...ids];
        // The merged entry keeps a scope its sources named: the model's clause, a suggestion's, a library entry's.
        const scope = scopeFrom(
          answer.when_not,
          ...folded.map((suggestion) => suggestion.whenNot),
          ...list.map((id) => liveId(id)?.scope?.whenNot),
        );
        if (list.length >= 2) operations.push({ op: "merge", ids: list, text, ...scope, reason: why });
        else if (list.length === 1)
          operations.push({ op: "modify", id: list[0]!, text, ...scope, reason: why });
        else operations.push({ op: "add", text, status: "candidate", ...scope, reason: why });
        return;
      }
    }
  });
  // A suggestion the answer never names was left out by the model (its judgement, not a failure): say so.
  const left = input.suggestions.filter(
    (suggestion) => !referenced.has(suggestion.tempId) && !writtenOut(suggestion),
  );
  if (left.length > 0) {
    const shown = left
      .slice(0, 12)
      .map(
        (suggestion) =>
          `${suggestion.tempId} (${suggestion.option}${suggestion.targetId ? ` ${suggestion.targetId}` : ""})`,
      );
    notes.push(
      `the model left out ${left.length} suggestion(s), not applied: ${shown.join(", ")}${left.length > 12 ? ", ..." : ""}`,
    );
  }
  return { operations, notes, leftOut: left };
}

/**
 * The batch's suggestions as operations that lose nothing and decide nothing: used when the model's answer is
 * unusable. Additions and rewrites enter as candidates (the rewritten entry itself is untouched, so a bad rewrite
 * cannot replace a proven entry); deletions are not applied without a model's judgement.
 */
export function fallbackOperations(
  suggestions: readonly Suggestion[],
  wordLimit: number,
  why: string,
): MappedAnswer {
  const operations: Operation[] = [];
  const notes: string[] = [];
  for (const suggestion of suggestions) {
    // The curator's own rewrite requests (no source proposal) are handled by the word-limit pass, not kept as copies.
    if (suggestion.sources.length === 0) continue;
    if (suggestion.option === "delete") {
      notes.push(`${suggestion.tempId} (delete ${suggestion.targetId}) not applied: ${why}`);
      continue;
    }
    const limited = enforceWordLimit(suggestion.text!, wordLimit);
    if (limited.shortened) notes.push(`${suggestion.tempId}: text over ${wordLimit} words, shortened`);
    const what =
      suggestion.option === "modify" ? `proposed rewrite of ${suggestion.targetId}` : "proposed addition";
    operations.push({
      op: "add",
      text: limited.text,
      status: "candidate",
      ...scopeFrom(suggestion.whenNot),
      reason: `${what} kept as a candidate (${why}): ${suggestion.reason}${sourcesNote([suggestion])}`,
    });
  }
  return { operations, notes };
}
