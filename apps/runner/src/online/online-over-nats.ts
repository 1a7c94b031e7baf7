import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { createLibraryRole, runLeasedLearner } from "@tfgrpo/serving";
import { createBus } from "../runtime/create-bus.js";
import { natsSettingsFromEnv } from "../runtime/nats-settings.js";
import { waitForStopSignal } from "../runtime/wait-for-stop-signal.js";
import type { OnlineStack } from "./create-online-stack.js";
import { markInterruptedRun } from "./online-learner-service.js";
import type { ServedRecord } from "./online-session.js";

/** Served records a session keeps for its summary (the latest). */
const maxServedRecords = 10_000;

export interface ServeOnlineOverNatsOptions {
  stack: OnlineStack;
  domain: string;
  nats: string;
  runId: string;
  log: (line: string) => void;
  /** Stop after this many outcomes of the domain (default: until stopped). */
  maxOutcomes?: number;
  /** Resolves when the session should stop (default: SIGINT or SIGTERM). */
  waitForStop?: () => Promise<string>;
}

/**
 * `online --nats`: the library role on the Bus (`tfgrpo.library.experiences`, `.outcome`, `.get`), and the domain's
 * leased learner (as `online --learner`): it learns from every outcome in the store after its cursor, whichever
 * process recorded it, while it holds the domain's lease; meanwhile this process routes by its canary draw. A second
 * `online --nats` over the same database serves too, routes by the stored canary, and waits for the lease.
 */
export async function serveOnlineOverNats(options: ServeOnlineOverNatsOptions): Promise<ServedRecord[]> {
  const { stack, domain, log } = options;
  const served: ServedRecord[] = [];
  let observed = 0;
  const bus = await createBus({
    nats: options.nats,
    name: `tfgrpo-online-${domain}`,
    ...natsSettingsFromEnv(),
  });
  const stopping = new AbortController();
  // Until this process holds the lease it routes as any other server does: by the stored canary.
  stack.useLearner(null);
  const role = createLibraryRole(stack.service, stack.store);
  const handle = await role.serve(bus);
  try {
    log(
      `online: library ${domain} served on ${options.nats} (tfgrpo.library.*); learning from reported outcomes; Ctrl-C to stop`,
    );
    const stop = (options.waitForStop ?? waitForStopSignal)().then((reason) => {
      log(`online: stopping (${reason})`);
      stopping.abort();
    });
    void stop;
    const result = await runLeasedLearner({
      store: stack.store,
      domain,
      createLearner: () => {
        const learner = stack.createLearner();
        stack.useLearner(learner);
        return learner;
      },
      holder: `${options.runId}:${randomUUID().slice(0, 8)}`,
      host: hostname(),
      pid: process.pid,
      // Outcomes are read back by cursor soon after they are reported; only a backend whose writers commit concurrently
      // (PostgreSQL; it offers `withLock` for them) may commit a lower sequence number after a higher one, so only
      // there does the cursor wait. SQLite's writers take turns.
      pollMs: 100,
      settleMs: stack.store.withLock ? 1000 : 0,
      signal: stopping.signal,
      ...(options.maxOutcomes !== undefined ? { maxOutcomes: options.maxOutcomes } : {}),
      log,
      onTakeover: (info) => markInterruptedRun(stack.store, domain, options.runId, info, log),
      onOutcome: (stored, learner) => {
        // A long session keeps the latest records for its summary, not every one.
        if (served.length >= maxServedRecords) served.splice(0, served.length - maxServedRecords + 1);
        served.push({
          index: observed++,
          taskId: stored.selectionId,
          family: null,
          version: stored.version,
          success: stored.success,
          reward: stored.reward,
        });
        if (observed % 10 === 0)
          log(`online: ${observed} outcomes, window success ${learner.state().windowRate ?? "-"}`);
      },
    });
    if (result.stopped === "max-outcomes") log(`online: stopping (${observed} outcomes)`);
  } finally {
    stopping.abort();
    await handle.close();
    await bus.close();
  }
  return served;
}
