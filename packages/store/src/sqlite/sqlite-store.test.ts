import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { createStore } from "../create-store.js";
import { storeContractTests } from "../testing/store-contract-tests.js";

storeContractTests("sqlite :memory:", () => createStore(":memory:"));

const dir = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-store-contract-"));
let n = 0;
storeContractTests("sqlite file", () => createStore(`sqlite://${path.join(dir, `store-${n++}.db`)}`));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
