import { afterAll, beforeAll } from "vitest";
import { createStore } from "../create-store.js";
import { type PostgresServerHandle, startPostgresServer } from "../testing/postgres-server.js";
import { storeContractTests } from "../testing/store-contract-tests.js";

// The same contract suites SQLite passes (:memory: and a file), unchanged, on a real PostgreSQL: a database per test.
let server: PostgresServerHandle;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.stop());

storeContractTests("postgres", async () => createStore(await server.createDatabase()));
