import type { Advice } from "./finding.js";
import { askedUnit, conversionFactor, sameNumber } from "./units.js";

/**
 * What web steps show, and what the critic knows about reading the web: a search snippet is not the page, an older
 * dated page may be out of date, a page's unit is not necessarily the question's. Findings come from comparing the
 * web steps of a losing and a winning attempt, or from one failed attempt's own steps.
 */

export interface WebSourceView {
  kind: "page" | "snippet";
  url: string;
  date: string | null;
  /** The value as the source writes it. */
  value: string;
  unit: string | null;
  /** The answer is the source's value times this factor (null: not converted). */
  factor: number | null;
}

export interface WebView {
  searched: boolean;
  hits: { url: string; date: string | null }[];
  pages: { url: string; date: string | null; failed: boolean }[];
  /** Where the final answer's value was read, when that can be told. */
  source: WebSourceView | null;
  answer: string | null;
}

export interface WebHit {
  key: "open-source-page" | "newest-source" | "asked-unit";
  advice: Advice;
  evidence: string;
  fill?: Record<string, string>;
  /** Stage-1 wording of the error, after `ERROR -`. */
  flag: string;
}

/** `a` is a later date than `b` (ISO dates or bare years). */
export function laterDate(a: string, b: string): boolean {
  if (a.length === 4 || b.length === 4) return a.slice(0, 4) > b.slice(0, 4);
  return a > b;
}

const openPage: Advice = {
  situations: [
    "looking up {subject} when a search snippet already shows a value",
    "answering a question about {subject} from search results",
    "finding {subject} on the web",
  ],
  actions: [
    "open the source page itself, ideally the organisation's own site, and confirm the value there before answering",
    "fetch the official page and read the value on it; do not stop at the result list",
    "verify the figure on the primary page, since result snippets and directory listings can be wrong",
  ],
  avoid: ["answering from the snippet alone", "trusting a listing in the search results"],
  because: ["snippets and third-party listings are often stale or simply wrong"],
  misguided: [
    "answer straight from the snippet; opening the page adds nothing",
    "trust the listing shown in the search results and skip fetching pages",
  ],
  cues: {
    topic: /\bsnippets?\b|\bsearch results?\b|\bresult list\b|\blistings?\b|\baggregator|\bdirectory\b/i,
    right: /\bopen|\bfetch|\bverify|\bconfirm|\bofficial\b|\bprimary\b|\bown (?:site|page|website)\b/i,
    wrong:
      /\btrust|\bskip|\bstraight from\b|\bno need\b|\badds nothing\b|\bfrom the snippet\b(?![^.]*\bnot\b)/i,
  },
};

const newestSource: Advice = {
  situations: [
    "looking up {subject}, which changes over time",
    "looking up {subject} as it stands today",
    "finding {subject} when pages from different years disagree",
  ],
  actions: [
    "compare the publication dates and take the value from the most recent source",
    "prefer the newest dated page and set older reports aside",
    "check each page's date and use the latest figure",
  ],
  avoid: ["using the first figure found", "relying on an older article"],
  because: [
    "older pages report values that have since changed",
    "a figure from years ago may no longer hold",
  ],
  misguided: [
    "use the first figure you find; publication dates do not matter",
    "trust whichever result the search lists first, whatever its date",
  ],
  cues: {
    topic: /\bdates?\b|\brecent\b|\bnewest\b|\blatest\b|\bolder\b|\boutdated\b|\bcurrent\b|\byears?\b/i,
    right: /\bmost recent\b|\bnewest\b|\blatest\b|\bcompare\b[^.]*\bdates?\b|\bcheck\b[^.]*\bdates?\b/i,
    wrong:
      /\bfirst figure\b|\bdates? do(?:es)? not matter\b|\bwhatever its date\b|\bignore\b[^.]*\bdates?\b|\bregardless of\b[^.]*\bdate\b|\btop search result\b/i,
  },
};

const askedUnitAdvice: Advice = {
  situations: [
    "reporting {subject} in {asked} from a page that gives {page}",
    "answering a question about {subject} in a unit other than the page's",
    "giving {subject} in {asked}",
  ],
  actions: [
    "convert the page's value into {asked} (× {factor}) before answering",
    "multiply the figure in {page} by {factor} so the answer is in {asked}",
    "answer in the unit the question names, converting {page} to {asked}",
  ],
  avoid: ["copying the number in the page's unit"],
  because: ["one {page} is {factor} {asked}"],
  misguided: [
    "report the figure exactly as the page gives it, in the page's unit",
    "keep the page's unit, since converting only adds mistakes",
  ],
  cues: {
    topic:
      /\bunits?\b|\bconver|\bgrams?\b|\bkg\b|\bkilograms?\b|\bhectares?\b|\bkm²|\bminutes?\b|\bhours?\b/i,
    right: /\bconvert|\bmultiply|\bunit the question\b|\brequested unit\b|\bunit asked\b/i,
    wrong:
      /\bas the page gives\b|\bkeep the (?:page's )?unit\b|\bwithout convert|\bconverting only adds\b|\bin the page's unit\b/i,
  },
};

function okPages(view: WebView) {
  return view.pages.filter((page) => !page.failed);
}

function sourceDate(view: WebView): string | null {
  if (view.source?.kind === "page") return view.source.date;
  if (view.source?.kind === "snippet") return view.source.date;
  return okPages(view).at(-1)?.date ?? null;
}

function unitMismatch(
  view: WebView,
  problem: string,
): { asked: string; page: string; factor: number } | null {
  const asked = askedUnit(problem);
  const source = view.source;
  if (!asked || !source?.unit || source.unit === asked) return null;
  const factor = conversionFactor(source.unit, asked);
  if (factor === null) return null;
  if (source.factor !== null && sameNumber(source.factor, factor)) return null;
  return { asked, page: source.unit, factor };
}

function formatFactor(factor: number): string {
  return Number.isInteger(factor) ? String(factor) : String(Number(factor.toPrecision(6)));
}

function snippetHit(view: WebView, evidence: string): WebHit {
  return {
    key: "open-source-page",
    advice: openPage,
    evidence,
    flag: `answered ${view.answer ?? "the question"} from the search results without opening any page; the value should have been confirmed on the source page`,
  };
}

function unitHit(mismatch: { asked: string; page: string; factor: number }, evidence: string): WebHit {
  const factor = formatFactor(mismatch.factor);
  return {
    key: "asked-unit",
    advice: askedUnitAdvice,
    evidence,
    fill: { asked: mismatch.asked, page: mismatch.page, factor },
    flag: `gave the page's value in ${mismatch.page}, but the question asks for ${mismatch.asked}; it should have been converted (× ${factor})`,
  };
}

/** Web differences between a losing and a winning attempt that explain the loss. */
export function contrastWeb(
  loser: WebView,
  winner: WebView,
  problem: string,
  winnerName = "the winning attempt",
): WebHit[] {
  const hits: WebHit[] = [];
  if (loser.searched && okPages(loser).length === 0 && okPages(winner).length > 0) {
    const where = loser.source?.kind === "snippet" ? ` (snippet of ${loser.source.url})` : "";
    hits.push(
      snippetHit(
        loser,
        `{losers} answered from the search results${where} without opening a page, ${winnerName} opened ${okPages(winner).at(-1)!.url}`,
      ),
    );
  }
  const lost = sourceDate(loser);
  const won = sourceDate(winner);
  if (lost && won && laterDate(won, lost)) {
    hits.push({
      key: "newest-source",
      advice: newestSource,
      evidence: `{losers} took the value from a source dated ${lost}, ${winnerName} from a source dated ${won}`,
      flag: `used a source dated ${lost} although a newer one existed; the most recent source should have been used`,
    });
  }
  const mismatch = unitMismatch(loser, problem);
  if (mismatch && !unitMismatch(winner, problem)) {
    hits.push(
      unitHit(
        mismatch,
        `{losers} kept the value ${loser.source!.value} in the page's ${mismatch.page}, ${winnerName} answered ${winner.answer ?? "?"} in ${mismatch.asked}`,
      ),
    );
  }
  return hits;
}

/** What one failed attempt's web steps show on their own. */
export function suspectWeb(view: WebView, problem: string): WebHit[] {
  const hits: WebHit[] = [];
  if (view.searched && okPages(view).length === 0 && view.source?.kind !== "page")
    hits.push(snippetHit(view, `the attempt answered ${view.answer ?? "nothing"} without opening any page`));
  const used = sourceDate(view);
  if (used) {
    const newer = view.hits.find((hit) => hit.date !== null && laterDate(hit.date, used));
    if (newer)
      hits.push({
        key: "newest-source",
        advice: newestSource,
        evidence: `the attempt used a source dated ${used} while the results listed one dated ${newer.date}`,
        flag: `used a source dated ${used} although the search results listed one dated ${newer.date}; the most recent source should have been used`,
      });
  }
  const mismatch = unitMismatch(view, problem);
  if (mismatch)
    hits.push(
      unitHit(
        mismatch,
        `the attempt answered ${view.answer ?? "?"}, the page's value in ${mismatch.page}, although the question asks for ${mismatch.asked}`,
      ),
    );
  return hits;
}
