import { fileURLToPath } from "node:url";

/** The real QuixBugs data copied into the repo (test-data/quixbugs), as a fresh clone has it. */
export const quixbugsDir = fileURLToPath(new URL("../../../test-data/quixbugs/", import.meta.url));
