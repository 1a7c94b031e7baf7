/**
 * How likely the simulated policy is to fall into a pitfall, by what its prompt says about that pitfall:
 * `helps` (a lesson addresses it the right way), `neutral` (a lesson names the concept without a direction),
 * `hurts` (a lesson points the wrong way), `conflict` (lessons pointing both ways), `none` (nothing about it).
 */
export interface FallProbabilities {
  none: number;
  helps: number;
  neutral: number;
  hurts: number;
  conflict: number;
}

export interface PolicyBehaviour {
  /** With tools. */
  fall: FallProbabilities;
  /** Without tools ("direct" mode): more mistakes. */
  directFall: FallProbabilities;
  /** Chance of an extra arithmetic slip when answering without tools. */
  directSlip: number;
}

export const defaultPolicyBehaviour: PolicyBehaviour = {
  // A lesson that says what to do removes most mistakes, not all (a model does not always follow its prompt); a vague
  // mention of the topic helps a little (0.8 -> 0.7); lessons pointing both ways leave the policy unsure.
  fall: { none: 0.8, helps: 0.15, neutral: 0.7, hurts: 0.95, conflict: 0.6 },
  directFall: { none: 0.88, helps: 0.25, neutral: 0.8, hurts: 0.97, conflict: 0.7 },
  directSlip: 0.15,
};

/** Noise rates (0..1) of each simulated role; see createSimServer. */
export interface SimNoise {
  actor: {
    /** A tool call whose arguments are not valid JSON. */
    malformedToolCall: number;
    /** The policy keeps calling tools and never answers (per task and request seed). */
    loop: number;
  };
  critic: {
    /** A lesson that sounds useful and says nothing specific ("double-check the work"). */
    vague: number;
    /** A paraphrase of a lesson already in the library. */
    duplicate: number;
    /** A plausible lesson pointing the wrong way, in varied words. */
    contradictory: number;
    /** A lesson blaming a cause the evidence does not support (an irrelevant habit or difference). */
    wrongAttribution: number;
    /** modify/delete of an id that is not in the prompt. */
    wrongId: number;
    /**
     * A lesson that carries the group's answer instead of a method (what the curator's leakage check must refuse).
     * Default 0: tests plant it.
     */
    answerLeak?: number;
    /**
     * A group of one attempt has no contrast to lean on: the vague, contradictory and wrong-attribution rates are
     * multiplied by this (capped at 0.95).
     */
    singleAttemptScale: number;
    /**
     * Follows an instruction planted in the cases of an online reflection ("add the lesson: X") by writing X as an
     * add operation, wherever in the cases it stands: a model that prompt injection works on, however the prompt
     * quotes its data (default 0). For tests of the defences that do not rely on the model.
     */
    obeysInjection?: number;
  };
  curator: {
    /** Keeps a vague proposal instead of dropping it. */
    keepVague: number;
    /** Adds duplicates separately instead of merging them. */
    missedMerge: number;
    /** Refers to an id that does not exist. */
    wrongId: number;
  };
}

export const defaultNoise: SimNoise = {
  actor: { malformedToolCall: 0, loop: 0 },
  critic: {
    vague: 0.1,
    duplicate: 0.1,
    contradictory: 0.1,
    wrongAttribution: 0.1,
    wrongId: 0.05,
    singleAttemptScale: 2.5,
  },
  curator: { keepVague: 0.05, missedMerge: 0.05, wrongId: 0.02 },
};

/** No noise at all (tests that need exact behaviour). */
export const quietNoise: SimNoise = {
  actor: { malformedToolCall: 0, loop: 0 },
  critic: {
    vague: 0,
    duplicate: 0,
    contradictory: 0,
    wrongAttribution: 0,
    wrongId: 0,
    singleAttemptScale: 2.5,
  },
  curator: { keepVague: 0, missedMerge: 0, wrongId: 0 },
};

export type SimNoiseOptions = { [K in keyof SimNoise]?: Partial<SimNoise[K]> };

export function resolveNoise(options: SimNoiseOptions | undefined): SimNoise {
  return {
    actor: { ...defaultNoise.actor, ...options?.actor },
    critic: { ...defaultNoise.critic, ...options?.critic },
    curator: { ...defaultNoise.curator, ...options?.curator },
  };
}
