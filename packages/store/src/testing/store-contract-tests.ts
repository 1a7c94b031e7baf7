import { describe } from "vitest";
import type { Store } from "../store.js";
import { clientStoreContractTests } from "./client-store-contract.js";
import { leakageFingerprintStoreContractTests } from "./leakage-fingerprint-store-contract.js";
import { learnerStoreContractTests } from "./learner-store-contract.js";
import { libraryStoreContractTests } from "./library-store-contract-tests.js";
import { outcomeStoreContractTests } from "./outcome-store-contract.js";
import { retentionContractTests } from "./retention-contract.js";
import { runStoreContractTests } from "./run-store-contract-tests.js";
import { trajectoryStoreContractTests } from "./trajectory-store-contract-tests.js";

/**
 * The conformance suite every `Store` backend must pass: the suites of its aggregates, each on a fresh store.
 * `createFresh` returns a new, set-up, empty store each time; the suites close it.
 */
export function storeContractTests(name: string, createFresh: () => Promise<Store>): void {
  describe(`store contract: ${name}`, () => {
    libraryStoreContractTests(name, createFresh);
    runStoreContractTests(name, createFresh);
    trajectoryStoreContractTests(name, createFresh);
    outcomeStoreContractTests(name, createFresh);
    leakageFingerprintStoreContractTests(name, createFresh);
    clientStoreContractTests(name, createFresh);
    learnerStoreContractTests(name, createFresh);
    retentionContractTests(name, createFresh);
  });
}
