import {
  defaultPolicyBehaviour,
  type PolicyBehaviour,
  resolveNoise,
  type SimNoiseOptions,
} from "./behaviour.js";
import { answerCapabilityCheck, capabilityCheckMarker } from "./capability-check.js";
import { type ChatRequest, lastUserText } from "./chat-request.js";
import { createSimCritic } from "./critic/sim-critic.js";
import { createSimOnlineCritic } from "./critic/sim-online-critic.js";
import { createSimCurator } from "./curator/sim-curator.js";
import { writeDirectExperiences } from "./direct/sim-direct-experiences.js";
import { judgeAnswer } from "./sim-judge.js";
import { createSimPolicy, type SimToolCall } from "./sim-policy.js";
import { renderStructured } from "./structured-output.js";
import { isUserRoleRequest, respondAsUser } from "./user/sim-user.js";
import { createWorld, type SimWorld } from "./world.js";

export type SimCallKind =
  | "consolidation"
  | "conflict-check"
  | "group-advantage"
  | "online-reflection"
  | "trajectory-summary"
  | "judge"
  | "direct-experiences"
  | "capability-check"
  | "user"
  | "actor";

export interface SimCompletion {
  kind: SimCallKind;
  content: string | null;
  toolCalls: SimToolCall[];
  /** The content is a JSON answer (so a malformed-JSON fault can break it). */
  structured: boolean;
}

export interface SimModelOptions {
  seed: number;
  world?: SimWorld | number;
  noise?: SimNoiseOptions;
  behaviour?: Partial<PolicyBehaviour>;
}

export interface SimModel {
  seed: number;
  world: SimWorld;
  /** Which call of the prompt contract a request is (markers of the last user message, in contract order). */
  classify(request: ChatRequest): SimCallKind;
  complete(request: ChatRequest): SimCompletion;
}

export function classifyCall(lastUser: string): SimCallKind {
  if (lastUser.includes(capabilityCheckMarker)) return "capability-check";
  if (lastUser.includes("<suggested_updates>")) return "consolidation";
  if (lastUser.includes("<experience_a")) return "conflict-check";
  if (lastUser.includes("<outcomes>")) return "online-reflection";
  if (lastUser.includes("<trajectories>")) return "group-advantage";
  if (lastUser.includes("<trajectory>")) return "trajectory-summary";
  if (lastUser.includes("<response>") && lastUser.includes("<groundtruth>")) return "judge";
  if (lastUser.includes("<lesson_count>")) return "direct-experiences";
  return "actor";
}

/** The simulated model without HTTP: one request in, one deterministic answer out. */
export function createSimModel(options: SimModelOptions): SimModel {
  const { seed } = options;
  const world =
    options.world === undefined
      ? createWorld(seed)
      : typeof options.world === "number"
        ? createWorld(options.world)
        : options.world;
  const noise = resolveNoise(options.noise);
  const behaviour: PolicyBehaviour = { ...defaultPolicyBehaviour, ...options.behaviour };
  const policy = createSimPolicy({ seed, world, behaviour, noise });
  const critic = createSimCritic({ seed, noise });
  const onlineCritic = createSimOnlineCritic({ seed, noise });
  const curator = createSimCurator({ seed, noise });

  const json = (kind: SimCallKind, value: unknown, request: ChatRequest): SimCompletion => ({
    kind,
    content: renderStructured(value, request.response_format),
    toolCalls: [],
    structured: true,
  });

  return {
    seed,
    world,
    classify: (request) => (isUserRoleRequest(request) ? "user" : classifyCall(lastUserText(request))),
    complete(request) {
      // tfgrpo's user role: its scenario in the system message (the agent's words are its `user` messages).
      if (isUserRoleRequest(request)) {
        return { kind: "user", content: respondAsUser(request), toolCalls: [], structured: false };
      }
      const prompt = lastUserText(request);
      const kind = classifyCall(prompt);
      switch (kind) {
        case "consolidation":
          return json(kind, curator.consolidate(prompt), request);
        case "conflict-check":
          return json(kind, curator.conflict(prompt), request);
        case "group-advantage":
          return json(kind, critic.advantage(prompt), request);
        case "online-reflection":
          return json(kind, onlineCritic.reflect(prompt), request);
        case "trajectory-summary":
          return { kind, content: critic.summarize(prompt), toolCalls: [], structured: false };
        case "judge":
          return json(kind, judgeAnswer(prompt), request);
        case "direct-experiences":
          return json(kind, writeDirectExperiences(prompt, { seed }), request);
        case "capability-check":
          return { kind, ...answerCapabilityCheck(request) };
        default: {
          const turn = policy.respond(request);
          return { kind, content: turn.content, toolCalls: turn.toolCalls, structured: false };
        }
      }
    },
  };
}
