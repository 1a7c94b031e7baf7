import type { Pitfall } from "./pitfall.js";

// What the policy knows of each web trap (notions of policy/lexicon.ts).

export const snippetVersusOfficial: Pitfall = {
  id: "snippet-vs-official",
  domain: "web",
  title: "answering from a search snippet that disagrees with the official page",
  reading: {
    topic: ["SNIPPET", "RESULT OFFICIAL"],
    context: ["OFFICIAL", "RESULT"],
    helpful: [
      "OPEN OFFICIAL",
      "CHECK OFFICIAL",
      "USE OFFICIAL",
      "CHECK SNIPPET",
      "OPEN SNIPPET",
      "TRUST OFFICIAL",
      "?OFFICIAL",
    ],
    harmful: ["TRUST SNIPPET", "USE SNIPPET", "SKIPPING OPEN", "SKIPPING OFFICIAL", "?SNIPPET"],
  },
};

export const outdatedSource: Pitfall = {
  id: "outdated-source",
  domain: "web",
  title: "using an outdated source instead of the latest one",
  reading: {
    topic: ["RECENT", "OLD", "DATE figure", "DATE number", "DATE CHECK"],
    context: ["PAGE", "figure", "number", "population", "employe", "ceo", "source"],
    helpful: ["USE RECENT", "CHECK DATE", "?RECENT", "EXCLUDE OLD"],
    harmful: ["USE OLD", "?OLD", "SKIPPING DATE", "?REGARDLESS"],
  },
};

export const unitConversion: Pitfall = {
  id: "unit-conversion",
  domain: "web",
  title: "answering in the page's unit instead of the unit asked",
  reading: {
    topic: ["UNIT", "CONVERT"],
    context: ["ASKED"],
    helpful: ["CONVERT", "CHECK UNIT", "USE ASKED UNIT", "ASKED UNIT"],
    harmful: ["KEEP UNIT", "?KEEP", "SKIPPING CONVERT", "USE PAGE UNIT", "?REGARDLESS"],
  },
};

export const webPitfalls: readonly Pitfall[] = [snippetVersusOfficial, outdatedSource, unitConversion];
