// A standalone actor worker for integration tests: `node --conditions=source --import tsx actor-worker-process.ts
// <nats-url> <openai-base-url> [stream-prefix] [concurrency] [settings-json]`. It serves tfgrpo.actor.rollout over
// NATS with an actor whose model is the given OpenAI-compatible server (direct mode, or with the tools of
// `settings-json`: `{ "tools": <tools config>, "actor": <actor config> }`, as a TFGRPO_ACTOR_CONFIG holds), prints
// "ready" once serving, and shuts down cleanly (finishing rollouts in flight) on SIGTERM.

import { createNatsBus } from "@tfgrpo/bus-nats";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { checkToolset, createToolResources, openToolset } from "@tfgrpo/tools";
import { serveActor } from "../actor-role.js";
import { createActor } from "../create-actor.js";

const [natsUrl, modelUrl, streamPrefix = "TFGRPO", concurrency = "4", settingsJson] = process.argv.slice(2);
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
const settings = settingsJson ? JSON.parse(settingsJson) : {};
const resources = settings.tools ? createToolResources(settings.tools) : undefined;
// The same check as `serve --role actor`: every configured domain's tools open before the worker takes a job.
for (const domain of Object.keys(settings.tools?.domains ?? {}))
  await checkToolset({ domain, resources: resources! });
const actor = createActor({
  models,
  ...(resources
    ? {
        tools: (
          domain: string,
          names: readonly string[],
          context: { task: import("@tfgrpo/protocol").Task },
        ) => openToolset({ domain, resources, tools: names as never, task: context.task }),
      }
    : {}),
  ...(settings.actor ? { config: settings.actor } : {}),
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
    await resources?.close();
    process.exit(0);
  })();
});
