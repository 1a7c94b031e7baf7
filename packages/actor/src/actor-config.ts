import {
  defaultLibraryBudget,
  defaultUtilityOptions,
  formatZodIssues,
  TfgrpoError,
  type ToolEntry,
  toolEntrySchema,
  utilityOptionsSchema,
} from "@tfgrpo/protocol";
import { z } from "zod";

/** A domain's tool entry: a built-in name, `mcp:<server>` or `module:<name>` (the tools config resolves them). */
export const toolNameSchema = toolEntrySchema;
export type ToolName = ToolEntry;

export const retrievalConfigSchema = z.object({
  similarityWeight: z.number().min(0).max(1).default(0.7).describe("Weight of task/entry cosine similarity"),
  utilityWeight: z.number().min(0).max(1).default(0.3).describe("Weight of the entry's UCB utility"),
  utility: utilityOptionsSchema
    .default(defaultUtilityOptions)
    .describe(
      "The entry utility formula; keep it equal to the curator's `utility` so both rank entries alike",
    ),
  allActiveThreshold: z
    .number()
    .int()
    .nonnegative()
    .default(defaultLibraryBudget.maxEntries)
    .describe(
      "Up to this many active entries, all are shown (the paper's setting), within tokenBudget; the curator's active budget",
    ),
  minCandidates: z
    .number()
    .int()
    .nonnegative()
    .default(1)
    .describe("Candidate entries shown at least, so new entries get tried"),
  topK: z.number().int().positive().default(20).describe("Entries shown at most when retrieving top-k"),
  tokenBudget: z
    .number()
    .int()
    .positive()
    .default(defaultLibraryBudget.maxTokens)
    .describe(
      "Token budget of the experience block (the curator's active budget: what is kept is what is shown)",
    ),
  systemPromptTokenLimit: z
    .number()
    .int()
    .positive()
    .default(8000)
    .describe(
      "Size the system prompt may reach; experiences never take more than maxShareOfSystemPrompt of it",
    ),
  maxShareOfSystemPrompt: z.number().min(0).max(1).default(0.4),
  scopeMinSimilarity: z
    .number()
    .min(-1)
    .max(1)
    .default(0.4)
    .describe("Cosine of a task to an entry's whenNot clause before the entry can be left out of it"),
  scopeMargin: z
    .number()
    .min(-2)
    .max(2)
    .default(0.1)
    .describe("How much closer the task must be to the whenNot clause than to the entry's own text"),
  mostUsefulCount: z
    .number()
    .int()
    .nonnegative()
    .default(3)
    .describe("Entries repeated under # Most Useful Experiences (0: no repeat block)"),
  mostUsefulMinShown: z
    .number()
    .int()
    .nonnegative()
    .default(3)
    .describe("Rollouts an entry must have been shown in before it can count as most useful"),
});
export type RetrievalConfig = z.infer<typeof retrievalConfigSchema>;

export const domainConfigSchema = z.object({
  tools: z.array(toolNameSchema).default([]),
  systemPrompt: z.string().min(1),
});
export type DomainConfig = z.infer<typeof domainConfigSchema>;

export const defaultDomains: Record<string, DomainConfig> = {
  math: {
    tools: ["code_interpreter"],
    systemPrompt:
      "You are a mathematical problem solver. Reason step by step, check your work, and use the code interpreter " +
      "to compute or verify whatever can be computed.",
  },
  web: {
    tools: ["web_search", "web_fetch"],
    systemPrompt:
      "You are a research assistant that answers questions from evidence found on the web. Search, read the " +
      "pages that matter, and base your answer on what they say.",
  },
  default: {
    tools: [],
    systemPrompt: "You are a careful problem solver. Reason step by step and check your work.",
  },
};

export const actorConfigSchema = z.object({
  maxSteps: z.number().int().positive().default(12).describe("Model calls per rollout"),
  maxToolCalls: z.number().int().nonnegative().default(10).describe("Tool calls per rollout"),
  timeoutMs: z.number().int().positive().default(300_000).describe("Wall-clock limit of one rollout"),
  maxTokens: z
    .number()
    .int()
    .positive()
    .default(60_000)
    .describe("Input + output tokens one rollout may consume over all its model calls"),
  maxOutputTokensPerCall: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Output tokens per model call; unset, the actor model's maxTokens from models.yaml applies"),
  temperature: z.number().min(0).max(2).default(0.7).describe("Sampling temperature of training rollouts"),
  evalTemperature: z
    .number()
    .min(0)
    .max(2)
    .default(0.3)
    .describe("Sampling temperature when the purpose is validate or eval"),
  toolOutputModelChars: z
    .number()
    .int()
    .positive()
    .default(16_000)
    .describe("A tool output longer than this is cut before the model sees it"),
  toolOutputStoredChars: z
    .number()
    .int()
    .positive()
    .default(4000)
    .describe("A tool output longer than this is cut in the stored trajectory"),
  repeatedCallLimit: z
    .number()
    .int()
    .positive()
    .default(3)
    .describe("The same tool call (name + arguments) repeated this many times ends the rollout"),
  maxUserTurns: z
    .number()
    .int()
    .positive()
    .default(20)
    .describe("Replies of the user in a conversational rollout (a task with meta.userScenario) at most"),
  userReplyChars: z
    .number()
    .int()
    .positive()
    .default(4000)
    .describe("A user reply longer than this is cut (it is untrusted text, like a tool result)"),
  environmentStateChars: z
    .number()
    .int()
    .positive()
    .default(200_000)
    .describe("A final environment state whose JSON is longer is not stored in the trajectory (its diff is)"),
  environmentDiffEntries: z
    .number()
    .int()
    .positive()
    .default(500)
    .describe("State changes stored per trajectory at most"),
  retrieval: retrievalConfigSchema.default(retrievalConfigSchema.parse({})),
  domains: z.record(z.string(), domainConfigSchema).default(defaultDomains),
});
export type ActorConfig = z.infer<typeof actorConfigSchema>;
export type ActorConfigInput = z.input<typeof actorConfigSchema>;

/** Validates a config (e.g. from a YAML file) and fills defaults; `domains` given are merged over the defaults. */
export function parseActorConfig(input: unknown = {}, where = "actor config"): ActorConfig {
  const parsed = actorConfigSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new TfgrpoError("invalid_config", `${where}: ${formatZodIssues(parsed.error.issues)}`, {
      details: { where },
    });
  }
  const config = parsed.data;
  const given = (input as { domains?: unknown } | undefined)?.domains;
  if (given !== undefined) config.domains = { ...defaultDomains, ...config.domains };
  return config;
}

export function domainConfigFor(config: ActorConfig, domain: string): DomainConfig {
  return config.domains[domain] ?? config.domains.default ?? defaultDomains.default!;
}
