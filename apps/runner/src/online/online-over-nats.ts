import { createLibraryRole, type LibraryServiceEvent, type OnlineOutcome } from "@tfgrpo/serving";
import { createBus } from "../runtime/create-bus.js";
import { natsSettingsFromEnv } from "../runtime/nats-settings.js";
import { waitForStopSignal } from "../runtime/wait-for-stop-signal.js";
import type { OnlineStack } from "./create-online-stack.js";
import type { ServedRecord } from "./online-session.js";

export interface ServeOnlineOverNatsOptions {
  stack: OnlineStack;
  domain: string;
  nats: string;
  log: (line: string) => void;
  /** Stop after this many outcomes of the domain (default: until stopped). */
  maxOutcomes?: number;
  /** Resolves when the session should stop (default: SIGINT or SIGTERM). */
  waitForStop?: () => Promise<string>;
}

/**
 * `online --nats`: the library role on the Bus (`tfgrpo.library.experiences`, `.outcome`, `.get`) routed by the
 * learner's canary draw, and the learner fed with every outcome its clients report for the domain (read back from
 * the store with the selection it belongs to, so the task text and trajectory are the stored ones).
 */
export async function serveOnlineOverNats(options: ServeOnlineOverNatsOptions): Promise<ServedRecord[]> {
  const { stack, domain, log } = options;
  const served: ServedRecord[] = [];
  const bus = await createBus({
    nats: options.nats,
    name: `tfgrpo-online-${domain}`,
    ...natsSettingsFromEnv(),
  });
  let reachedLimit: (reason: string) => void = () => {};
  const limit = new Promise<string>((resolve) => {
    reachedLimit = resolve;
  });
  let chain: Promise<unknown> = Promise.resolve();
  const observe = async (event: Extract<LibraryServiceEvent, { type: "outcome" }>) => {
    const found = await stack.store.getSelection(event.reply.selectionId);
    if (!found?.outcome || found.selection.domain !== domain) return;
    const stored = found.outcome;
    const outcome: OnlineOutcome = {
      selectionId: stored.selectionId,
      domain,
      version: stored.version,
      task: stored.task,
      reward: stored.reward,
      success: stored.success,
      summary: stored.summary,
      feedback: stored.feedback,
      trajectory: stored.trajectory,
    };
    await stack.learner.observe(outcome);
    served.push({
      index: served.length,
      taskId: stored.selectionId,
      family: null,
      version: stored.version,
      success: stored.success,
      reward: stored.reward,
    });
    if (served.length % 10 === 0)
      log(`online: ${served.length} outcomes, window success ${stack.learner.state().windowRate ?? "-"}`);
    if (options.maxOutcomes !== undefined && served.length >= options.maxOutcomes)
      reachedLimit(`${served.length} outcomes`);
  };
  const unsubscribe = stack.subscribe((event) => {
    if (event.type !== "outcome") return;
    chain = chain
      .then(() => observe(event))
      .catch((error: Error) => log(`online: observing an outcome failed: ${error.message}`));
  });
  const role = createLibraryRole(stack.service, stack.store);
  const handle = await role.serve(bus);
  try {
    log(
      `online: library ${domain} served on ${options.nats} (tfgrpo.library.*); learning from reported outcomes; Ctrl-C to stop`,
    );
    const reason = await Promise.race([limit, (options.waitForStop ?? waitForStopSignal)()]);
    log(`online: stopping (${reason})`);
  } finally {
    unsubscribe();
    await handle.close();
    await chain;
    await bus.close();
  }
  return served;
}
