export { expectTfgrpoError, makeTrajectory } from "./fixtures.js";
export {
  type LeakageFingerprintTestStore,
  leakageFingerprintStoreContractTests,
} from "./leakage-fingerprint-store-contract.js";
export { libraryStoreContractTests } from "./library-store-contract-tests.js";
export { type OutcomeTestStore, outcomeStoreContractTests } from "./outcome-store-contract.js";
export { type PostgresServerHandle, startPostgresServer } from "./postgres-server.js";
export { realLibraryPath } from "./real-libraries.js";
export { runStoreContractTests } from "./run-store-contract-tests.js";
export { storeContractTests } from "./store-contract-tests.js";
export { trajectoryStoreContractTests } from "./trajectory-store-contract-tests.js";
