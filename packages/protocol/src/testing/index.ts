export { type BusPair, busContractTests, eventually } from "./bus-contract.js";
export { type RealLibraryName, readRealLibrary, realLibraryFile } from "./real-libraries.js";
export { type NatsServerHandle, startNatsServer } from "./start-nats-server.js";
