import { type Experience, experienceIdSchema, type Operation, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { assertTransition } from "./lifecycle-transitions.js";
import { normalizeText } from "./text-tokens.js";
import { isVagueLesson } from "./vague-lesson.js";
import { countWords } from "./word-limit.js";

const lesson = z.string().trim().min(1, "the lesson text is empty");

/** What a person can do to a library by hand (the studio's review queue). Each becomes one committed version. */
export const manualActionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("approve"), id: experienceIdSchema }),
  z.object({ kind: z.literal("reject"), id: experienceIdSchema }),
  z.object({ kind: z.literal("edit"), id: experienceIdSchema, text: lesson }),
  z.object({
    kind: z.literal("merge"),
    ids: z.array(experienceIdSchema).min(2, "a merge needs two entries"),
    text: lesson,
  }),
  z.object({
    kind: z.literal("resolve-conflict"),
    group: z.string().min(1),
    /** The entry that stays (the others of the group are archived); null keeps them all and dissolves the group. */
    keep: experienceIdSchema.nullable(),
  }),
]);
export type ManualAction = z.infer<typeof manualActionSchema>;

export interface ManualActionRules {
  wordLimit: number;
  minContentWords: number;
}

/**
 * A person's action -> the operations the store applies, checked by the curator's own rules: the lifecycle
 * transitions, the word limit (refused, not cut: a person shortens their own words), vague lessons, and texts that
 * repeat a live entry. Nothing is shortened or dropped silently: any problem refuses the whole action with a message
 * naming the entry and the field.
 */
export function manualActionOperations(
  action: ManualAction,
  library: ReadonlyMap<string, Experience>,
  reason: string,
  rules: ManualActionRules,
): Operation[] {
  const live = (id: string): Experience => {
    const entry = library.get(id);
    if (!entry) throw refused(`${id} is not in this library version`, { id, field: "id" });
    if (entry.status === "archived") throw refused(`${id} is archived`, { id, field: "id" });
    return entry;
  };
  switch (action.kind) {
    case "approve": {
      const entry = live(action.id);
      assertTransition(entry.id, entry.status, "active");
      return [{ op: "modify", id: entry.id, status: "active", reason }];
    }
    case "reject":
      live(action.id);
      return [{ op: "delete", id: action.id, reason }];
    case "edit": {
      const entry = live(action.id);
      const text = checkLesson(action.text, action.id, library, rules, [action.id]);
      if (text === entry.text)
        throw refused(`${action.id}: the text is unchanged`, { id: action.id, field: "text" });
      return [{ op: "modify", id: entry.id, text, reason }];
    }
    case "merge": {
      const ids = [...new Set(action.ids)];
      if (ids.length < 2) throw refused("a merge needs two different entries", { field: "ids" });
      for (const id of ids) live(id);
      const text = checkLesson(action.text, `merge of ${ids.join(" and ")}`, library, rules, ids);
      return [{ op: "merge", ids, text, reason }];
    }
    case "resolve-conflict": {
      const members = [...library.values()].filter(
        (entry) => entry.conflictGroup === action.group && entry.status !== "archived",
      );
      if (members.length === 0)
        throw refused(`conflict group ${action.group} has no live entries`, { field: "group" });
      if (action.keep !== null && !members.some((entry) => entry.id === action.keep))
        throw refused(`${action.keep} is not in conflict group ${action.group}`, { field: "keep" });
      return members.map(
        (entry): Operation =>
          action.keep === null || entry.id === action.keep
            ? { op: "modify", id: entry.id, conflictGroup: null, reason }
            : {
                op: "delete",
                id: entry.id,
                reason: `conflict ${action.group} resolved for ${action.keep}: ${reason}`,
              },
      );
    }
  }
}

/** The curator's checks on a lesson a person wrote; returns the text as it will be stored (whitespace collapsed). */
function checkLesson(
  raw: string,
  where: string,
  library: ReadonlyMap<string, Experience>,
  rules: ManualActionRules,
  replacing: readonly string[],
): string {
  const text = raw.replace(/\s+/g, " ").trim();
  const words = countWords(text);
  if (words > rules.wordLimit) {
    throw refused(
      `${where}: the lesson has ${words} words; the limit is ${rules.wordLimit}. Shorten it to ${rules.wordLimit} words or fewer`,
      { field: "text", words, limit: rules.wordLimit },
    );
  }
  if (isVagueLesson(text, rules.minContentWords)) {
    throw refused(
      `${where}: the lesson is too vague to act on (fewer than ${rules.minContentWords} content words and no condition such as "When ...")`,
      { field: "text" },
    );
  }
  const key = normalizeText(text);
  for (const entry of library.values()) {
    if (entry.status === "archived" || replacing.includes(entry.id)) continue;
    if (normalizeText(entry.text) === key)
      throw refused(`${where}: the lesson repeats ${entry.id}`, { field: "text", duplicateOf: entry.id });
  }
  return text;
}

function refused(message: string, details: Record<string, unknown>): TfgrpoError {
  return new TfgrpoError("invalid_operations", message, { details });
}
