import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { addUsage, emptyUsageTotals, type Role, TfgrpoError, type UsageTotals } from "@tfgrpo/protocol";
import { z } from "zod";
import type { ModelEntry, ModelsConfig, StructuredOutputMode } from "../config/models-config-schema.js";
import { createModels, type Models } from "../create-models.js";
import type { Fetch } from "../retrying-fetch.js";

export const capabilities = [
  "chat",
  "tools",
  "json_schema",
  "json_object",
  "text",
  "seed",
  "embeddings",
  "cached_tokens",
] as const;
export type Capability = (typeof capabilities)[number];

export interface CapabilityResult {
  status: "ok" | "failed" | "refused" | "skipped" | "off" | "none";
  /** One line: what the provider said, or what was seen. */
  detail?: string;
}

export interface RoleCheck {
  role: Role;
  model: string;
  baseUrl: string;
  results: Partial<Record<Capability, CapabilityResult>>;
  /** What this role's use needs, e.g. the actor a tool-call round trip, the critic a structured-output mode. */
  needs: string[];
  /** The structured-output mode the role will use (the configured one if it works, else the best lower one). */
  structuredMode?: StructuredOutputMode;
  /** One line for a failure that stops every check of the role: 401, 404, a timeout, no connection. */
  fatal?: string;
  /** Whether the role can do what its use needs. */
  ok: boolean;
  /** What is missing, one line each. */
  problems: string[];
}

export interface CheckModelsOptions {
  /** Deadline of each call (no retries: a check should say what is wrong, fast). Default 20 s. */
  timeoutMs?: number;
  env?: Record<string, string | undefined>;
  fetch?: Fetch;
  /** Only these roles (default: every configured role). */
  roles?: readonly Role[];
  /** The actor runs with tools (default) or without (`--mode direct`): then it does not need tool calls. */
  actorMode?: "tools" | "direct";
}

export interface ModelsCheckReport {
  roles: RoleCheck[];
  /** What the checks themselves cost. */
  usage: UsageTotals;
  ok: boolean;
}

/** Probes are marked, so a test world (tfgrpo's sim) can tell them from its task prompts; real models ignore it. */
const check = (instruction: string) => `<capability_check>${instruction}</capability_check>`;
const modeOrder: StructuredOutputMode[] = ["json_schema", "json_object", "text"];
const sumSchema = z.object({ sum: z.number().describe("the sum of the two numbers") });
// Long enough for providers that cache prompts from about 1024 tokens (OpenAI, DeepSeek).
const cachePrompt = Array.from(
  { length: 120 },
  (_, index) => `Line ${index + 1}: the quick brown fox jumps over the lazy dog.`,
).join("\n");

/**
 * One tiny call per capability for every role of a models config, so a user learns before a run that a key is
 * refused, a model name is wrong, a parameter is unsupported or a structured-output mode is not available, and
 * which mode each role will use. Calls are made without retries and with a short deadline.
 */
export async function checkModels(
  config: ModelsConfig,
  options: CheckModelsOptions = {},
): Promise<ModelsCheckReport> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const roles = (Object.keys(config.roles) as Role[]).filter(
    (role) => options.roles === undefined || options.roles.includes(role),
  );
  const checks = await Promise.all(
    roles.map((role) => checkRole(role, config.roles[role] as ModelEntry, config, { ...options, timeoutMs })),
  );
  const usage = checks.reduce<UsageTotals>(
    (total, check) => addUsageTotals(total, check.usage),
    emptyUsageTotals(),
  );
  return { roles: checks.map((check) => check.result), usage, ok: checks.every((check) => check.result.ok) };
}

async function checkRole(
  role: Role,
  entry: ModelEntry,
  config: ModelsConfig,
  options: CheckModelsOptions & { timeoutMs: number },
): Promise<{ result: RoleCheck; usage: UsageTotals }> {
  const forMode = (mode: StructuredOutputMode): Models =>
    createModels(
      {
        ...(config.source ? { source: config.source } : {}),
        roles: { [role]: { ...entry, structuredOutput: mode, maxRetries: 0, timeoutMs: options.timeoutMs } },
      },
      {
        ...(options.env ? { env: options.env } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        sleep: async () => {},
      },
    );
  const models = forMode(entry.structuredOutput);
  const used: Models[] = [models];
  const results: RoleCheck["results"] = {};
  const result: RoleCheck = {
    role,
    model: entry.model,
    baseUrl: entry.baseUrl,
    results,
    needs: [],
    ok: true,
    problems: [],
  };
  const probe = async (capability: Capability, work: () => Promise<CapabilityResult>) => {
    try {
      results[capability] = await work();
    } catch (error) {
      results[capability] = classify(error, entry, options.timeoutMs);
    }
    return results[capability] as CapabilityResult;
  };
  const usage = () =>
    used.map((each) => each.usage.byRole(role)).reduce<UsageTotals>(addUsageTotals, emptyUsageTotals());

  if (role === "embedder") {
    result.needs = ["embeddings"];
    const embeddings = await probe("embeddings", async () => {
      const vectors = await models.embed(["ok", "models check"]);
      return { status: "ok", detail: `${vectors[0]?.length ?? 0} dimensions` };
    });
    finish(result, embeddings);
    return { result, usage: usage() };
  }

  result.needs =
    role === "actor"
      ? options.actorMode === "direct"
        ? ["chat"]
        : ["chat", "tools"]
      : role === "user"
        ? ["chat"] // the simulated user of conversational domains only talks
        : ["chat", "structured output"];
  const chat = await probe("chat", async () => {
    const answer = await models.complete(role, {
      messages: [{ role: "user", content: check("Reply with the single word: ok") }],
      maxTokens: 64,
    });
    return { status: "ok", detail: answer.text.trim().slice(0, 40) || "(empty text)" };
  });
  if (chat.status !== "ok" && isFatal(chat)) {
    finish(result, chat);
    return { result, usage: usage() };
  }
  // Probed for every chat role (only the actor in tools mode needs it).
  await probe("tools", async () => {
    const add = tool(async ({ a, b }: { a: number; b: number }) => String(a + b), {
      name: "add",
      description: "Adds two numbers.",
      schema: z.object({ a: z.number(), b: z.number() }),
    });
    const bound = models.chat(role, { maxTokens: 256 }).bindTools([add]);
    const question = new HumanMessage(check("Use the add tool to add 2 + 3, then answer with the sum."));
    const first = await bound.invoke([question]);
    const call = first.tool_calls?.[0];
    if (!call) return { status: "failed", detail: "the model answered without calling the tool" };
    await bound.invoke([
      question,
      first,
      new ToolMessage({
        content: String(await add.invoke(call.args as never)),
        tool_call_id: call.id ?? "call_0",
      }),
    ]);
    return { status: "ok", detail: "call and result round trip" };
  });

  for (const mode of modeOrder) {
    await probe(mode, async () => {
      const scoped = forMode(mode);
      used.push(scoped);
      const answer = await scoped.structured(role, {
        messages: [{ role: "user", content: check("What is 2 + 3? Answer with the sum.") }],
        schema: sumSchema,
        name: "sum",
        maxAttempts: 1,
        maxTokens: 256,
      });
      if (answer.mode !== mode) return { status: "refused", detail: `the provider refused ${mode}` };
      return answer.value.sum === 5
        ? { status: "ok" }
        : { status: "ok", detail: `valid JSON (the model said ${answer.value.sum})` };
    });
  }
  const start = modeOrder.indexOf(entry.structuredOutput);
  const usable = modeOrder.slice(start).find((mode) => results[mode]?.status === "ok");
  if (usable) result.structuredMode = usable;

  await probe("seed", async () => {
    if (!entry.supportsSeed) return { status: "off", detail: "supportsSeed: false" };
    await models.complete(role, {
      messages: [{ role: "user", content: check("Reply: ok") }],
      seed: 7,
      maxTokens: 16,
    });
    return { status: "ok" };
  });
  await probe("cached_tokens", async () => {
    const ask = () =>
      models.complete(role, {
        messages: [
          { role: "system", content: cachePrompt },
          { role: "user", content: check("Reply: ok") },
        ],
        maxTokens: 16,
      });
    await ask();
    const again = await ask();
    return again.usage.cachedInputTokens > 0
      ? {
          status: "ok",
          detail: `${again.usage.cachedInputTokens} of ${again.usage.inputTokens} input tokens cached`,
        }
      : { status: "none", detail: "no cached tokens reported for a repeated prompt" };
  });

  if (chat.status !== "ok") result.problems.push(`chat: ${chat.detail ?? chat.status}`);
  if (result.needs.includes("tools") && results.tools?.status !== "ok")
    result.problems.push(`tool calls: ${results.tools?.detail ?? results.tools?.status}`);
  if (result.needs.includes("structured output") && !usable)
    result.problems.push(
      `structured output: no mode from ${entry.structuredOutput} down works (${modeOrder
        .slice(start)
        .map((mode) => `${mode}: ${results[mode]?.detail ?? results[mode]?.status}`)
        .join("; ")})`,
    );
  result.ok = result.problems.length === 0;
  return { result, usage: usage() };
}

function finish(result: RoleCheck, outcome: CapabilityResult): void {
  if (outcome.status === "ok") return;
  if (isFatal(outcome)) result.fatal = outcome.detail ?? outcome.status;
  result.problems.push(outcome.detail ?? outcome.status);
  result.ok = false;
}

const fatalPattern = /^(401|403|404|timeout|cannot connect)/;

function isFatal(outcome: CapabilityResult): boolean {
  return outcome.status === "failed" && fatalPattern.test(outcome.detail ?? "");
}

/** A failed call as one line a user can act on. */
function classify(error: unknown, entry: ModelEntry, timeoutMs: number): CapabilityResult {
  const details = TfgrpoError.isInstance(error) ? (error.details ?? {}) : {};
  const status = typeof details.status === "number" ? details.status : undefined;
  const raw = error instanceof Error ? error.message : String(error);
  // Drop the `role (model): ` prefix and the SDK's status prefix: the table already says which role.
  const message = raw
    .replace(/^[a-z]+ \([^)]*\): /, "")
    .replace(/^\d{3} /, "")
    .trim();
  if (status === 401 || status === 403) {
    const key = entry.apiKeyEnv
      ? `the key in ${entry.apiKeyEnv}`
      : "the request (no apiKeyEnv is configured)";
    return {
      status: "failed",
      detail: `${status} unauthorized: ${entry.baseUrl} refused ${key}: ${message}`,
    };
  }
  if (status === 404) {
    return {
      status: "failed",
      detail: `404 model not found: "${entry.model}" at ${entry.baseUrl}: ${message}`,
    };
  }
  if (status === 400) return { status: "refused", detail: `400 unsupported parameter or value: ${message}` };
  if (/no response within|stalled|time limit|timed? ?out/i.test(raw)) {
    return { status: "failed", detail: `timeout: no answer from ${entry.baseUrl} within ${timeoutMs} ms` };
  }
  if (/connection failed|ECONNREFUSED|ENOTFOUND|fetch failed/i.test(raw)) {
    return { status: "failed", detail: `cannot connect to ${entry.baseUrl}: ${message}` };
  }
  return { status: "failed", detail: status ? `${status}: ${message}` : message };
}

const addUsageTotals = (total: UsageTotals, next: UsageTotals): UsageTotals => addUsage(total, next);
