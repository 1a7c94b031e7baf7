import type { Advice } from "../finding.js";
import type { CodeView } from "./code-view.js";

/** Code fragments that show the difference (verbatim, numbers kept). */
export interface IdiomMatch {
  loser: string;
  winner?: string;
}

export interface Idiom {
  id: string;
  /** A losing and a winning program of the same problem differ in this idiom. */
  contrast(loser: CodeView, winner: CodeView, problem: string): IdiomMatch | null;
  /** One program, with the problem, looks wrong in this idiom (no contrast to lean on). */
  suspect(code: CodeView, problem: string): IdiomMatch | null;
  /** Stage-1 wording of the error, after `ERROR -`. */
  flag(match: IdiomMatch): string;
  advice: Advice;
}
