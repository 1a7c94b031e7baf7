import type { CriticOperation, TracedOperation } from "./critic-operation.js";
import type { AttemptEvidence } from "./summary-reading.js";

/**
 * Stage 2 for repair attempts (SIMULATED critic): the problems the failing attempts show and the best ones do not,
 * each turned into one lesson in the critic's own words (two phrasings, picked by the draw), at most three.
 */
const lessons: Record<string, readonly string[]> = {
  "special-case": [
    "Change the logic that computes the wrong value; do not special-case the failing inputs or hard-code their expected outputs.",
    "Never hard-code a test's input and expected output into the program: fix the defect itself so every input works.",
  ],
  "visible-only": [
    "Visible tests passing is not proof of a fix: before answering, run the docstring example and a few edge cases of your own, such as an empty input.",
    "After the visible tests pass, check more inputs: the docstring's example and edge cases like an empty list, since hidden cases decide the grade.",
  ],
  "same-line": [
    "Do not keep editing only the line the traceback names: trace the wrong value back to the line that computes it, often an earlier line.",
    "The line where the error is raised is rarely the faulty line; look at the other lines of the function, where the value is computed.",
  ],
  "plus-one": [
    "A bound or an index that is off by one may need one less rather than one more: try removing or subtracting it as well as adding it.",
    "When an index or bound looks off by one, consider both directions; subtract or remove the one instead of always adding it.",
  ],
  reversed: [
    "When a comparison looks wrong, try its strictness first (< vs <=, > vs >=) rather than reversing its direction.",
    "For a suspicious comparison, check whether it should be strict or non-strict (< versus <=) instead of reversing it.",
  ],
  "only-changed": [
    "A defect can be an absent statement rather than a wrong token: when swapping operators and names fails, insert the update or the call that the code never makes.",
    "When edits to existing tokens keep failing, look for an absent line, such as a variable the loop never updates or a set that is never filled, and add it.",
  ],
  "no-stop": [
    "When a program times out or recurses without end, check its base case: a guard must stop it on an empty list or None.",
    "If the tests time out or hit the recursion limit, check the base case and add the condition that ends the recursion on an empty input.",
  ],
};

const vague = "Read the whole program carefully before editing and test your fix.";

const tagsOf = (summary: string) => [...summary.matchAll(/^- \[([a-z-]+)\]/gm)].map((m) => m[1]!);

export const isRepairSummary = (summary: string) => summary.startsWith("Repair attempt review.");

export function repairOperations(
  attempts: readonly AttemptEvidence[],
  draw: (label: string, ...extra: string[]) => number,
  maxOperations: number,
): TracedOperation[] {
  const best = Math.max(...attempts.map((a) => a.reward));
  const worst = Math.min(...attempts.map((a) => a.reward));
  const losers = attempts.filter((a) => a.reward < best || (attempts.length === 1 && a.reward < 1));
  const winners = best > worst ? attempts.filter((a) => a.reward === best) : [];
  const clean = new Set(winners.flatMap((a) => tagsOf(a.summary)));
  const counts = new Map<string, number>();
  for (const attempt of losers) {
    for (const tag of new Set(tagsOf(attempt.summary))) {
      if (!clean.has(tag) && lessons[tag]) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    }
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const operations: TracedOperation[] = ranked.slice(0, maxOperations).map(([tag, count]) => {
    const phrasings = lessons[tag]!;
    const operation: CriticOperation = {
      option: "add",
      experience: phrasings[Math.floor(draw("repair-lesson", tag) * phrasings.length)]!,
      reason: `${count} failing attempt(s) show this problem ([${tag}]) and the successful ones do not.`,
    };
    return { operation, origin: "evidence" };
  });
  if (operations.length === 0 && losers.length > 0) {
    operations.push({
      operation: {
        option: "add",
        experience: vague,
        reason: "The reviews do not show where the failing attempts went wrong.",
      },
      origin: "fallback",
    });
  }
  return operations;
}
