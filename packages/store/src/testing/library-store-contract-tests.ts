import { describe } from "vitest";
import type { LibraryTestStore } from "./contract-helpers.js";
import { libraryFilesContract } from "./library-files-contract.js";
import { libraryOperationsContract } from "./library-operations-contract.js";
import { libraryVersionsContract } from "./library-versions-contract.js";

/**
 * The conformance suite of a `LibraryStore` backend (like langgraph's checkpoint `specTest`).
 * `createFresh` returns a new, set-up, empty store each time; the suite closes it.
 */
export function libraryStoreContractTests(name: string, createFresh: () => Promise<LibraryTestStore>): void {
  describe(`library store contract: ${name}`, () => {
    libraryVersionsContract(createFresh);
    libraryOperationsContract(createFresh);
    libraryFilesContract(createFresh);
  });
}
