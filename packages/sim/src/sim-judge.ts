import { between } from "./text/experience-lines.js";

export interface JudgeVerdict {
  verdict: "correct" | "partial" | "incorrect";
  reason: string;
}

/** Normal form of an answer: last \boxed{} if any, no LaTeX wrappers, spaces, thousands separators or case. */
export function normalizeAnswer(text: string): string {
  const boxed = [...text.matchAll(/\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}/g)].at(-1)?.[1] ?? text;
  return boxed
    .replace(/\\(?:d|t)?frac\{([^{}]*)\}\{([^{}]*)\}/g, "$1/$2")
    .replace(/\\text\{([^{}]*)\}/g, "$1")
    .replace(/[$\\]/g, "")
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.]$/, "")
    .toLowerCase();
}

function asNumber(text: string): number | null {
  const fraction = /^(-?\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(text);
  if (fraction) return Number(fraction[1]) / Number(fraction[2]);
  return /^-?\d+(?:\.\d+)?$/.test(text) ? Number(text) : null;
}

/** The simulated judge: compares the response with the ground truth after normalisation. */
export function judgeAnswer(prompt: string): JudgeVerdict {
  const truth = normalizeAnswer(between(prompt, "groundtruth") ?? "");
  const response = normalizeAnswer(between(prompt, "response") ?? "");
  if (truth === "") return { verdict: "incorrect", reason: "No ground truth was given." };
  if (response === truth)
    return { verdict: "correct", reason: `The response ${response} matches the ground truth.` };
  const a = asNumber(response);
  const b = asNumber(truth);
  if (a !== null && b !== null && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)))
    return { verdict: "correct", reason: `${response} equals ${truth} numerically.` };
  const tokens = response.split(/[^a-z0-9./-]+/).filter(Boolean);
  if (tokens.includes(truth) && tokens.length > 1)
    return { verdict: "partial", reason: `The response contains ${truth} among other candidate answers.` };
  return {
    verdict: "incorrect",
    reason: `The response ${response || "(empty)"} does not match the ground truth ${truth}.`,
  };
}
