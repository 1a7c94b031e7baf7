import { contrastCode, genericAdvice, suspectCode } from "./code-contrast.js";
import type { Advice, Finding } from "./finding.js";
import type { AttemptEvidence } from "./summary-reading.js";
import { contrastTools } from "./tool-contrast.js";
import { numericValue, sameNumber } from "./units.js";
import { contrastWeb, suspectWeb } from "./web-evidence.js";

/**
 * Stage 2's reasoning over one group: set the attempts that lost beside the ones that won and collect what differs
 * (code idioms, raw code lines, web steps). With a single attempt there is nothing to compare, so only what looks
 * wrong in the failed attempt on its own is found, with less confidence.
 */

export interface GroupAnalysis {
  findings: Finding[];
  single: boolean;
  winners: AttemptEvidence[];
  losers: AttemptEvidence[];
  domain: "math" | "web";
}

const runCode: Advice = {
  situations: ["doing a calculation that could be checked by a program"],
  actions: [
    "compute the result with the code interpreter instead of working it out by hand",
    "run the calculation as code and answer with what it prints",
  ],
  avoid: ["doing the arithmetic by hand"],
  because: ["hand arithmetic slips where a program does not"],
  misguided: ["work it out by hand, since running code is not needed for a short calculation"],
  cues: {
    topic: /\bcode\b|\binterpreter\b|\bby hand\b|\bmentally\b|\bprogram\b/i,
    right: /\brun\b|\bcode interpreter\b|\bexecute\b/i,
    wrong: /\bby hand\b|\bnot needed\b|\bmentally\b/i,
  },
};

const reportPrinted: Advice = {
  situations: ["copying a computed result into the final answer"],
  actions: [
    "answer with exactly the value the program printed",
    "copy the printed result into the final answer without changing it",
  ],
  avoid: ["retyping or adjusting the printed value"],
  because: ["the final answer drifted from the computed one"],
  misguided: ["adjust the printed result by hand when it looks off"],
  cues: {
    topic: /\bprint|\boutput\b|\bfinal answer\b/i,
    right: /\bexactly\b|\bcopy\b|\bwithout changing\b/i,
    wrong: /\badjust\b|\bround it yourself\b/i,
  },
};

function attemptList(attempts: readonly { index: number }[]): string {
  const indexes = attempts.map((a) => a.index);
  return indexes.length === 1 ? `attempt ${indexes[0]}` : `attempts ${indexes.join(", ")}`;
}

function answeredOtherThanPrinted(attempt: AttemptEvidence): boolean {
  const printed = attempt.code?.printed ?? null;
  if (printed === null || attempt.answer === null) return false;
  const a = numericValue(attempt.answer);
  const p = numericValue(printed);
  return a !== null && p !== null ? !sameNumber(a, p) : attempt.answer.trim() !== printed.trim();
}

class FindingSet {
  private readonly byKey = new Map<string, Finding>();

  add(finding: Omit<Finding, "attempts">, attempt: number): void {
    const known = this.byKey.get(finding.key);
    if (known) {
      if (!known.attempts.includes(attempt)) known.attempts.push(attempt);
      known.confidence = Math.max(known.confidence, finding.confidence);
    } else this.byKey.set(finding.key, { ...finding, attempts: [attempt] });
  }

  has(attempt: number): boolean {
    return [...this.byKey.values()].some((f) => f.attempts.includes(attempt));
  }

  ranked(): Finding[] {
    // Most losing attempts explained first, then the surer findings; insertion order breaks ties.
    return [...this.byKey.values()]
      .map((finding) => ({
        ...finding,
        evidence: finding.evidence.replaceAll(
          "{losers}",
          attemptList(finding.attempts.map((index) => ({ index }))),
        ),
      }))
      .map((finding, order) => ({ finding, order }))
      .sort(
        (a, b) =>
          b.finding.attempts.length - a.finding.attempts.length ||
          b.finding.confidence - a.finding.confidence ||
          a.order - b.order,
      )
      .map(({ finding }) => finding);
  }
}

function suspectAll(found: FindingSet, loser: AttemptEvidence, problem: string, confidence: number): void {
  const answered = loser.answer ?? "no answer";
  if (loser.code) {
    for (const hit of suspectCode(loser.code, problem))
      found.add(
        {
          key: hit.idiom.id,
          advice: hit.idiom.advice,
          evidence: `${attemptList([loser])} wrote \`${hit.match.loser}\` and answered ${answered}: ${hit.idiom.flag(hit.match)}`,
          confidence,
        },
        loser.index,
      );
  }
  for (const hit of suspectWeb(loser.web, problem))
    found.add(
      {
        key: hit.key,
        advice: hit.advice,
        evidence: hit.evidence,
        confidence,
        usesSubject: true,
        ...(hit.fill ? { fill: hit.fill } : {}),
      },
      loser.index,
    );
  if (answeredOtherThanPrinted(loser))
    found.add(
      {
        key: "report-printed",
        advice: reportPrinted,
        evidence: `${attemptList([loser])} printed ${loser.code?.printed} but answered ${answered}`,
        confidence,
      },
      loser.index,
    );
}

export function analyseGroup(problem: string, attempts: readonly AttemptEvidence[]): GroupAnalysis {
  const domain = attempts.some((a) => a.web.searched || a.web.pages.length > 0) ? "web" : "math";
  const single = attempts.length === 1;
  const found = new FindingSet();
  if (single) {
    const only = attempts[0]!;
    if (only.reward < 1) suspectAll(found, only, problem, 0.5);
    return { findings: found.ranked(), single, winners: [], losers: only.reward < 1 ? [only] : [], domain };
  }
  const best = Math.max(...attempts.map((a) => a.reward));
  const winners = attempts.filter((a) => a.reward === best);
  const losers = attempts.filter((a) => a.reward < best);
  for (const loser of losers) {
    for (const winner of winners.slice(0, 3)) {
      const tag = `${attemptList([winner])} (reward ${winner.reward})`;
      const lost = "{losers}";
      if (loser.code && winner.code) {
        const contrast = contrastCode(loser.code, winner.code, problem);
        for (const hit of contrast.hits)
          found.add(
            {
              key: hit.idiom.id,
              advice: hit.idiom.advice,
              evidence: `${tag} wrote \`${hit.match.winner ?? "?"}\`; ${lost} wrote \`${hit.match.loser}\` and answered ${loser.answer ?? "nothing"}`,
              confidence: 1,
            },
            loser.index,
          );
        if (contrast.generic) {
          const { loser: l, winner: w } = contrast.generic;
          found.add(
            {
              key: `generic:${l ?? ""}|${w ?? ""}`,
              advice: genericAdvice(contrast.generic),
              evidence: `${tag} ${w ? `wrote \`${w}\`` : "did without that step"}; ${lost} ${l ? `wrote \`${l}\`` : "left that step out"} and answered ${loser.answer ?? "nothing"}`,
              confidence: 0.8,
            },
            loser.index,
          );
        }
      } else if (!loser.code && winner.code && winner.codeRan && domain === "math") {
        found.add(
          {
            key: "run-code",
            advice: runCode,
            evidence: `${tag} ran code and printed ${winner.code.printed ?? "?"}; ${lost} answered ${loser.answer ?? "nothing"} without computing it`,
            confidence: 0.7,
          },
          loser.index,
        );
      }
      for (const hit of contrastWeb(loser.web, winner.web, problem, attemptList([winner])))
        found.add(
          {
            key: hit.key,
            advice: hit.advice,
            evidence: `${hit.evidence}; {losers} answered ${loser.answer ?? "nothing"}, ${attemptList([winner])} ${winner.answer ?? "nothing"}`,
            confidence: 1,
            usesSubject: true,
            ...(hit.fill ? { fill: hit.fill } : {}),
          },
          loser.index,
        );
    }
    for (const winner of winners.slice(0, 3)) {
      const tools = contrastTools(
        loser.tools,
        winner.tools,
        `${attemptList([winner])} (reward ${winner.reward})`,
      );
      if (tools) found.add({ ...tools, confidence: 1 }, loser.index);
    }
    // Nothing told this loser apart from the winners: fall back on what looks wrong in it alone.
    if (!found.has(loser.index)) suspectAll(found, loser, problem, 0.6);
  }
  return { findings: found.ranked(), single, winners, losers, domain };
}
