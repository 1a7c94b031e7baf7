import type { ExperienceLine } from "../text/experience-lines.js";
import type { CriticOperation, TracedOperation } from "./critic-operation.js";
import type { Finding } from "./finding.js";
import { type Draw, writeLesson, writeWhenNot } from "./lesson-writer.js";
import { readLibrary } from "./library-reading.js";
import type { AttemptEvidence } from "./summary-reading.js";

/** The prompt's answer format has a `when_not` field: the critic then writes one where it can, as a model would. */
export function asksScope(prompt: string): boolean {
  return prompt.includes('"when_not"');
}

export function clip(text: string, limit = 400): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/**
 * One finding -> operations on the library, as the critic words them: fix or delete a line that points the other way
 * (the one the failures applied first), sharpen a line that already says it (sometimes), make a topical line
 * concrete, or add the lesson. Shared by the group critic (stage 2) and the online reflection.
 */
export function operationsFor(
  finding: Finding,
  context: {
    problem: string;
    library: readonly ExperienceLine[];
    losers: AttemptEvidence[];
    winners: AttemptEvidence[];
    draw: Draw;
    /** The prompt asks for `when_not`: the lessons it writes say where they stop applying, when the critic can. */
    asksScope?: boolean;
  },
): TracedOperation[] {
  const { problem, library, losers, winners, draw } = context;
  const lesson = writeLesson(finding, problem, draw);
  const whenNot = context.asksScope ? writeWhenNot(problem, draw, finding.key) : undefined;
  const reason = clip(finding.evidence);
  const reading = readLibrary(library, finding.advice.cues, lesson);
  const traced = (operation: CriticOperation): TracedOperation => ({
    operation: whenNot && operation.option !== "delete" ? { ...operation, when_not: whenNot } : operation,
    origin: "evidence",
    finding,
  });
  const citedByLosers = new Set(losers.flatMap((a) => a.cited));
  const citedByWinners = new Set(winners.flatMap((a) => a.cited));
  if (reading.misleading.length > 0) {
    const target =
      reading.misleading.find((line) => citedByLosers.has(line.id) && !citedByWinners.has(line.id)) ??
      reading.misleading[0]!;
    const blame = citedByLosers.has(target.id)
      ? `the failing attempts applied [${target.id}], whose advice points the other way`
      : `[${target.id}] advises the opposite`;
    if (draw("fix-style", finding.key) < 0.5)
      return [
        traced({
          option: "modify",
          experience_id: target.id,
          experience: lesson,
          reason: clip(`${blame}: ${reason}`),
        }),
      ];
    const out = [traced({ option: "delete", experience_id: target.id, reason: clip(`${blame}: ${reason}`) })];
    if (reading.same.length === 0) out.push(traced({ option: "add", experience: lesson, reason }));
    return out;
  }
  if (reading.same.length > 0) {
    // The library already says it and the attempts still went wrong: sometimes sharpen the wording.
    const target = reading.same[0]!;
    return draw("sharpen", finding.key) < 0.25
      ? [
          traced({
            option: "modify",
            experience_id: target.id,
            experience: lesson,
            reason: clip(`[${target.id}] says this too loosely: ${reason}`),
          }),
        ]
      : [];
  }
  if (reading.topical.length > 0) {
    const target = reading.topical[0]!;
    return [
      traced({
        option: "modify",
        experience_id: target.id,
        experience: lesson,
        reason: clip(`[${target.id}] names the topic without saying what to do: ${reason}`),
      }),
    ];
  }
  return [traced({ option: "add", experience: lesson, reason })];
}
