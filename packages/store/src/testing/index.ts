export { expectTfgrpoError, makeTrajectory } from "./fixtures.js";
export { realLibraryPath } from "./real-libraries.js";
export { storeContractTests } from "./store-contract-tests.js";
