export { type BusPair, busContractTests, eventually } from "./bus-contract.js";
export { type NatsServerHandle, startNatsServer } from "./start-nats-server.js";
