import type { ModelsConfig, Prices } from "@tfgrpo/models";
import type { Role } from "@tfgrpo/protocol";

/** What a run will do, from its options and data. */
export interface RunShape {
  trainSize: number;
  valSize: number;
  epochs: number;
  groupSize: number;
  /** Tasks per step (default: the whole training set). */
  batchSize?: number;
  valK: number;
  /**
   * Samples per validation task a candidate takes, when the gate validates in rounds (`--gate sequential`): it stops
   * once the decision is settled, so the count is a range. Absent: `valK`, the fixed-sample rules.
   */
  candidateValidationSamples?: Range;
  mode: "tools" | "direct";
  /** `learn`: training steps and gates; `eval`: only `evalRollouts` rollouts. */
  kind: "learn" | "eval";
  /** eval: rollouts to run (tasks x k x libraries). */
  evalRollouts?: number;
  /** learn: entries of the library the run starts from (a head already in the database), 0 for a new one. */
  startingEntries?: number;
}

/** Token sizes measured from the real prompts of this run's data (see measure-prompt-sizes.ts). */
export interface PromptSizes {
  /** The actor's system prompt + question + tool schemas, averaged over the tasks. */
  actorPrompt: number;
  /** Question + instructions of one critic summary call (without the trajectory). */
  summaryOverhead: number;
  /** Instructions of one group-advantage call (without the summaries). */
  advantageOverhead: number;
  /** Instructions of one consolidation call (without proposals and library). */
  consolidationOverhead: number;
}

/** A low / expected / high assumption. */
export type Range = [low: number, expected: number, high: number];

export interface Assumptions {
  /** Share of training rollouts that succeed; decides how many groups have mixed rewards (and reach the critic). */
  accuracy: Range;
  callsPerRollout: Range;
  /** Actor output tokens per model call. */
  actorOutputPerCall: Range;
  /** Tool output tokens fed back per model call. */
  toolOutputPerCall: Range;
  summaryOutput: Range;
  advantageOutput: Range;
  consolidationOutput: Range;
  /**
   * Measured: the success rate of each group of a previous run. Tasks differ (some always fail), so the share of
   * mixed groups follows from these better than from one average accuracy.
   */
  groupAccuracies?: number[];
  /** Measured input tokens per critic and per curator call. */
  criticInputPerCall?: Range;
  curatorInputPerCall?: Range;
  /** Where these came from: "defaults" or "measured in run X". */
  source: string;
}

/** Defaults for a capable chat model; a previous run in the same database replaces them with measured numbers. */
export function defaultAssumptions(mode: "tools" | "direct", actorMaxTokens = 2048): Assumptions {
  return {
    accuracy: [0.2, 0.5, 0.8],
    // A ReAct rollout of a reasoning model on competition math: a few code runs, long outputs.
    callsPerRollout: mode === "tools" ? [2, 4, 8] : [1, 1, 1],
    actorOutputPerCall: [200, 1000, Math.max(1000, actorMaxTokens)],
    toolOutputPerCall: mode === "tools" ? [50, 200, 800] : [0, 0, 0],
    summaryOutput: [100, 250, 500],
    advantageOutput: [100, 200, 400],
    consolidationOutput: [100, 300, 600],
    source: "defaults",
  };
}

export interface RoleEstimate {
  /** `agent`: the rollouts of the team's agent (`--agent`), on the team's model instead of tfgrpo's actor. */
  role: Role | "agent";
  calls: Range;
  inputTokens: Range;
  outputTokens: Range;
  costUsd: Range;
  /** False for the team's agent without `--agent-price`: its tokens are counted, its cost is 0 here. */
  priced: boolean;
}

export interface EstimateRunCostOptions {
  /**
   * The rollouts are the team's agent's (`learn/eval --agent`): its model is the team's, not a role of the models
   * config, so they are priced only with `prices` (`--agent-price`).
   */
  agent?: { prices?: Prices | undefined };
}

export interface CostEstimate {
  roles: RoleEstimate[];
  /** The priced roles' sum (without an unpriced agent's calls and cost). */
  total: { calls: Range; costUsd: Range };
  rollouts: Range;
  assumptions: Assumptions;
  prompts: PromptSizes;
}

interface Tally {
  calls: number;
  input: number;
  output: number;
}

/** A group of G rollouts reaches the critic only when its rewards differ: 1 - q^G - (1-q)^G. */
export function mixedGroupShare(accuracy: number, groupSize: number): number {
  if (groupSize <= 1) return 1;
  return 1 - accuracy ** groupSize - (1 - accuracy) ** groupSize;
}

/**
 * Expected model calls, tokens and USD per role for a learn or eval run, as a range. The structure is the learning
 * loop's: N x G training rollouts per epoch; the critic summarizes each rollout of a group with mixed rewards and
 * writes one group advantage; the curator consolidates once per step with proposals; every distinct library
 * (the empty one, each candidate) is validated once on V x k rollouts (results are reused by seed).
 */
export function estimateRunCost(
  shape: RunShape,
  prompts: PromptSizes,
  assumptions: Assumptions,
  config: ModelsConfig,
  options: EstimateRunCostOptions = {},
): CostEstimate {
  const scenario = (index: 0 | 1 | 2) => {
    const pick = (range: Range) => range[index];
    const c = pick(assumptions.callsPerRollout);
    const output = pick(assumptions.actorOutputPerCall);
    const tool = pick(assumptions.toolOutputPerCall);
    const G = shape.groupSize;
    // The share of mixed groups is largest at 50% accuracy: the range's ends come from the accuracy's ends.
    const shares = assumptions.accuracy.map((accuracy) => mixedGroupShare(accuracy, G));
    const measured = assumptions.groupAccuracies;
    const mixed =
      measured && measured.length > 0
        ? Math.min(
            1,
            (measured.reduce((total, accuracy) => total + mixedGroupShare(accuracy, G), 0) /
              measured.length) *
              ([0.7, 1, 1.3][index] as number),
          )
        : index === 1
          ? (shares[1] as number)
          : index === 0
            ? Math.min(...shares)
            : Math.max(...shares);
    let rollouts: number;
    let keptGroups = 0;
    let stepsWithProposals = 0;
    let libraryTokens = 0;
    if (shape.kind === "learn") {
      const batch = Math.min(shape.batchSize ?? shape.trainSize, shape.trainSize);
      const stepsPerEpoch = Math.ceil(shape.trainSize / batch);
      const steps = shape.epochs * stepsPerEpoch;
      keptGroups = shape.epochs * shape.trainSize * mixed;
      stepsWithProposals = steps * (1 - (1 - mixed) ** (shape.trainSize / stepsPerEpoch));
      const starting = shape.startingEntries ?? 0;
      // The empty library (baseline), the head the run starts from (if any), then each candidate.
      const perCandidate = shape.candidateValidationSamples
        ? // Candidate and head on the same seeds, round by round.
          2 * pick(shape.candidateValidationSamples)
        : shape.valK;
      const validation =
        shape.valSize * (shape.valK * (1 + (starting > 0 ? 1 : 0)) + perCandidate * stepsWithProposals);
      rollouts = shape.epochs * shape.trainSize * G + validation;
      // The library grows by up to a few entries per step; on average about half its final size is in prompts.
      libraryTokens = Math.min(1500, starting * 40 + (stepsWithProposals * 1.5 * 40) / 2);
    } else rollouts = shape.evalRollouts ?? 0;
    const prompt = prompts.actorPrompt + libraryTokens;
    const actorInput = rollouts * (c * prompt + ((c * (c - 1)) / 2) * (output + tool));
    const actorOutput = rollouts * c * output;
    const trajectory = prompts.actorPrompt * 0.3 + c * (output + tool);
    const summaryOut = pick(assumptions.summaryOutput);
    const advantageOut = pick(assumptions.advantageOutput);
    const criticCalls = keptGroups * (G + 1);
    const critic = {
      calls: criticCalls,
      input: assumptions.criticInputPerCall
        ? criticCalls * pick(assumptions.criticInputPerCall)
        : keptGroups *
          (G * (prompts.summaryOverhead + trajectory) + prompts.advantageOverhead + G * summaryOut),
      output: keptGroups * (G * summaryOut + advantageOut),
    };
    const curator = {
      calls: stepsWithProposals,
      input:
        stepsWithProposals *
        (assumptions.curatorInputPerCall
          ? pick(assumptions.curatorInputPerCall)
          : prompts.consolidationOverhead + libraryTokens * 2 + 3 * 60),
      output: stepsWithProposals * pick(assumptions.consolidationOutput),
    };
    return {
      rollouts,
      actor: { calls: rollouts * c, input: actorInput, output: actorOutput },
      critic,
      curator,
    };
  };
  const runs = [scenario(0), scenario(1), scenario(2)] as const;
  const roles: RoleEstimate[] = [];
  for (const role of ["actor", "critic", "curator"] as const) {
    const rollouts = role === "actor" && options.agent !== undefined;
    const prices = rollouts ? options.agent?.prices : config.roles[role]?.prices;
    if (!rollouts && !prices) continue;
    const values = runs.map((run) => run[role]) as [Tally, Tally, Tally];
    const range = (read: (value: Tally) => number): Range =>
      [read(values[0]), read(values[1]), read(values[2])].map((value) => Math.round(value)) as Range;
    roles.push({
      role: rollouts ? "agent" : role,
      calls: range((value) => value.calls),
      inputTokens: range((value) => value.input),
      outputTokens: range((value) => value.output),
      costUsd: [0, 1, 2].map((index) =>
        prices
          ? usd(values[index as 0]!.input, values[index as 0]!.output, prices, index === 0 ? 0.5 : 0)
          : 0,
      ) as Range,
      priced: prices !== undefined,
    });
  }
  const sum = (read: (role: RoleEstimate) => Range): Range =>
    [0, 1, 2].map((index) =>
      roles.filter((role) => role.priced).reduce((total, role) => total + read(role)[index]!, 0),
    ) as Range;
  return {
    roles,
    total: { calls: sum((role) => role.calls), costUsd: sum((role) => role.costUsd) },
    rollouts: runs.map((run) => Math.round(run.rollouts)) as Range,
    assumptions,
    prompts,
  };
}

/** USD of the tokens; `cachedShare` of the input at the cached price (the low end assumes prompt caching). */
function usd(input: number, output: number, prices: Prices, cachedShare: number): number {
  return (
    (input * (1 - cachedShare) * prices.input +
      input * cachedShare * prices.cachedInput +
      output * prices.output) /
    1_000_000
  );
}
