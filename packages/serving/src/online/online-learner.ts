import { createEmbeddingCache, type Proposal, seededRandom } from "@tfgrpo/protocol";
import { createTaskStratifier } from "../service/task-stratum.js";
import { canarySnapshot, headBound, recordCanaryOutcome, startCanaryRun } from "./canary-run.js";
import { createDecisionWriter } from "./decision-writer.js";
import { type LoopState, probationStep, settleCanary, stopForFutility } from "./learner-steps.js";
import { type OnlineConfig, resolveOnlineConfig } from "./online-config.js";
import { createOnlineCuratorBus } from "./online-curator-bus.js";
import type { OnlineEvent } from "./online-events.js";
import type { CreateOnlineLearnerOptions, OnlineLearner } from "./online-learner-api.js";
import type { OnlineOutcome } from "./online-outcome.js";
import { reflectionStep } from "./reflection-step.js";
import { createReflectionTrigger, type TriggerFiring } from "./reflection-trigger.js";
import { abandonStrays, resumeCanary } from "./resume-learner.js";

/**
 * Online learning while serving (seed 002 §3.2, §5), as a thin loop over pure decisions: each outcome goes to the
 * head's probation (`observeProbation`), the trigger, a due reflection (`reflectionStep`: lifecycle, critic,
 * consolidation into a proposed version) and the canary's sequential test (`decideCanary`, per stratum of similar
 * tasks, with the share that tests fastest). Every library write is a curator request over the Bus, through the one
 * decision writer; the learner itself only reads the store.
 */
export function createOnlineLearner(options: CreateOnlineLearnerOptions): OnlineLearner {
  let config = resolveOnlineConfig(options.config);
  const { domain, runId, store, models } = options;
  const now = options.now ?? (() => new Date());
  const { bus, ready } = options.bus
    ? { bus: options.bus, ready: Promise.resolve() }
    : createOnlineCuratorBus(options);
  const cache = createEmbeddingCache({ embed: (texts) => models.embed([...texts]), maxEntries: 4096 });
  const embed = async (texts: readonly string[]) => {
    const unique = [...new Set(texts)];
    const vectors = await cache.embed(unique);
    return new Map<string, ArrayLike<number>>(unique.map((text, index) => [text, vectors[index]!]));
  };
  let stratifier = createTaskStratifier({ bits: config.rollout.strataBits });
  const strata = async (tasks: readonly string[]) => {
    const vectors = await embed(tasks);
    return tasks.map((task) => stratifier({ vector: vectors.get(task) ?? null }));
  };
  const random = seededRandom(options.seed ?? 1);
  let trigger = createReflectionTrigger(config.trigger);
  const events: OnlineEvent[] = [];
  const pool: OnlineOutcome[] = [];
  const loop: LoopState = { head: null, canary: null, probation: null };
  let deferred: TriggerFiring | null = null;
  /** Proposals of reflections made while a canary ran, for the first reflection after its decision. */
  let held: Proposal[] = [];
  let observed = 0;
  let reflections = 0;
  let cursor = 0;
  let pendingConfig: OnlineConfig | null = null;
  let queue: Promise<unknown> = ready;
  const emit = (event: OnlineEvent, out: OnlineEvent[]) => {
    events.push(event);
    if (events.length > (options.maxEvents ?? 1000)) events.shift();
    out.push(event);
    options.onEvent?.(event);
  };
  const writer = createDecisionWriter({ bus, domain, runId, now, observed: () => observed, emit });
  const steps = { store, domain, writer, now, rollout: () => config.rollout };
  const reflectionDeps = {
    ...{ bus, store, domain, runId, models, embed },
    ...(options.summarize ? { summarize: options.summarize } : {}),
    ...(options.markConsumed ? { markConsumed: options.markConsumed } : {}),
  };

  async function reflectIfDue(out: OnlineEvent[], fresh: TriggerFiring | null = null): Promise<void> {
    await settleCanary(steps, loop, out);
    if (pendingConfig !== null && loop.canary === null) {
      config = pendingConfig;
      pendingConfig = null;
      stratifier = createTaskStratifier({ bits: config.rollout.strataBits });
      trigger = createReflectionTrigger(config.trigger, trigger.snapshot());
    }
    // One candidate at a time. While a canary runs, a reflection that falls due either stops it for futility (it had
    // `futilityAfter` outcomes and leans no better: the reflection then makes the next candidate) or reflects on the
    // traffic of the moment and holds its proposals for the first reflection after the canary's decision (the latest
    // such reflection's: lessons found meanwhile are not lost).
    if (loop.canary !== null) {
      if (fresh === null) return;
      if (!(await stopForFutility(steps, loop, out))) {
        await holdReflection(fresh, out);
        return;
      }
    }
    if (deferred === null) return;
    const firing = deferred;
    deferred = null;
    try {
      const id = `${runId}:reflection-${++reflections}`;
      const input = { id, at: observed, firing, pool: pool.slice(-config.groups.pool), config, held };
      const { event, head } = await reflectionStep(reflectionDeps, input);
      held = [];
      if (event.lifecycle !== null) loop.probation?.versions.push(event.lifecycle.version);
      loop.head = head;
      emit(event, out);
      if (event.version === null) return;
      const canary = startCanaryRun(event.version, head, cursor, now(), config.rollout);
      loop.canary = canary;
      emit(
        { type: "canary-start", at: observed, version: canary.version, parent: head, share: canary.share },
        out,
      );
    } finally {
      trigger.reflected();
    }
  }

  async function holdReflection(firing: TriggerFiring, out: OnlineEvent[]): Promise<void> {
    try {
      const id = `${runId}:reflection-${++reflections}`;
      const input = { id, at: observed, firing, pool: pool.slice(-config.groups.pool), config, hold: true };
      const step = await reflectionStep(reflectionDeps, input);
      if (step.held.length > 0) held = step.held;
      emit(step.event, out);
    } finally {
      trigger.reflected();
    }
  }

  async function handle(outcome: OnlineOutcome, out: OnlineEvent[]): Promise<void> {
    observed++;
    if (outcome.seq !== undefined) cursor = Math.max(cursor, outcome.seq);
    pool.push(outcome);
    if (pool.length > config.groups.pool * 2) pool.splice(0, pool.length - config.groups.pool);
    const canary = loop.canary;
    if (canary !== null && (outcome.version === canary.version || outcome.version === canary.parent)) {
      const [stratum] = await strata([outcome.task]);
      recordCanaryOutcome(canary, outcome, stratum!, headBound(config.rollout));
    }
    await probationStep(steps, loop, outcome, out);
    const firing = trigger.observe(outcome.success);
    if (firing) deferred = firing;
    await reflectIfDue(out, firing);
  }

  /** One step at a time (outcomes, ticks, resume, finish), each returning the events it emitted. */
  const serialized = (fn: (out: OnlineEvent[]) => Promise<void>): Promise<OnlineEvent[]> => {
    const run = queue.then(async () => {
      const out: OnlineEvent[] = [];
      await fn(out);
      return out;
    });
    queue = run.catch(() => {});
    return run;
  };

  return {
    get config() {
      return config;
    },
    start: async () => {
      await serialized(async () => {
        loop.head = await store.getHeadVersion(domain);
      });
    },
    resume: (snapshot, history) =>
      serialized(async (out) => {
        loop.head = await store.getHeadVersion(domain);
        pool.splice(0, pool.length, ...history.pool.slice(-config.groups.pool));
        const deps = { store, domain, writer, strata };
        if (snapshot !== null) {
          ({ cursor, observed, reflections, deferred } = snapshot);
          held = [...snapshot.held];
          trigger = createReflectionTrigger(config.trigger, snapshot.trigger);
          writer.decisions.splice(0, writer.decisions.length, ...snapshot.decisions);
          loop.probation = snapshot.probation;
          if (snapshot.canary !== null) {
            const bound = headBound(config.rollout);
            loop.canary = await resumeCanary(deps, snapshot.canary, history, loop.head, bound, out);
          }
        }
        await abandonStrays(deps, loop.canary?.version ?? null, out);
      }),
    snapshot: () => ({
      format: 1,
      runId,
      ...{ cursor, observed, reflections, deferred, head: loop.head },
      held: [...held],
      trigger: trigger.snapshot(),
      canary: canarySnapshot(loop.canary),
      probation: loop.probation ? structuredClone(loop.probation) : null,
      decisions: [...writer.decisions],
    }),
    tick: () => serialized((out) => reflectIfDue(out)),
    finish: () => serialized((out) => settleCanary(steps, loop, out, true)),
    reconfigure(input) {
      pendingConfig = resolveOnlineConfig(input);
    },
    route() {
      const canary = loop.canary;
      if (canary !== null && random() < canary.share) return { version: canary.version, arm: "canary" };
      return { version: loop.head, arm: "head" };
    },
    observe: (outcome) => serialized((out) => handle(outcome, out)),
    state() {
      const c = loop.canary;
      return {
        head: loop.head,
        canary: c && { version: c.version, parent: c.parent, share: c.share, outcomes: c.outcomes.length },
        observed,
        reflections,
        windowRate: trigger.windowRate(),
        cursor,
      };
    },
    events,
  };
}
