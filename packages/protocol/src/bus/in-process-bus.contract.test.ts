import { busContractTests } from "../testing/bus-contract.js";
import { createInProcessBus } from "./in-process-bus.js";

busContractTests("in-process", async () => {
  const bus = createInProcessBus({ resultRetryDelayMs: 10 });
  return { a: bus, b: bus, cleanup: () => bus.close() };
});
