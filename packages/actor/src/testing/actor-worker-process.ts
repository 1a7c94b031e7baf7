// A standalone actor worker for integration tests: `node --conditions=source --import tsx actor-worker-process.ts
// <nats-url> <openai-base-url> [stream-prefix] [concurrency]`. It serves tfgrpo.actor.rollout over NATS with a
// direct-mode actor whose model is the given OpenAI-compatible server, prints "ready" once serving, and shuts down
// cleanly (finishing rollouts in flight) on SIGTERM.

import { createNatsBus } from "@tfgrpo/bus-nats";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { serveActor } from "../actor-role.js";
import { createActor } from "../create-actor.js";

const [natsUrl, modelUrl, streamPrefix = "TFGRPO", concurrency = "4"] = process.argv.slice(2);
if (!natsUrl || !modelUrl) {
  process.stderr.write(
    "usage: actor-worker-process.ts <nats-url> <openai-base-url> [stream-prefix] [concurrency]\n",
  );
  process.exit(2);
}

const bus = await createNatsBus({ servers: natsUrl, streamPrefix, name: `actor-worker-${process.pid}` });
const models = createModels(
  parseModelsConfig({ roles: { actor: { baseUrl: modelUrl, model: "worker-model", maxRetries: 0 } } }),
);
const actor = createActor({
  models,
  generateId: (() => {
    let next = 0;
    return () => `worker-${process.pid}-${++next}`;
  })(),
});
const handle = await serveActor({ bus, actor, concurrency: Number(concurrency) });
process.stdout.write(`ready ${process.pid}\n`);

process.once("SIGTERM", () => {
  void (async () => {
    await handle.close();
    await bus.close();
    process.exit(0);
  })();
});
