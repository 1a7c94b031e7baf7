import { formatPath, type Role, roleSchema, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { didYouMean } from "./did-you-mean.js";
import { interpolateEnv } from "./interpolate-env.js";
import {
  type ModelEntry,
  type ModelEntryInput,
  type ModelsConfig,
  modelEntryDefaults,
  modelEntrySchema,
  modelsConfigFileSchema,
  type providerSchema,
} from "./models-config-schema.js";

export interface ParseModelsConfigOptions {
  /** Where the value came from (a file name), shown in every message. */
  source?: string;
  /** Environment for `${VAR}` interpolation and for checking that key variables are set; default process.env. */
  env?: Record<string, string | undefined>;
  /** Roles the caller will use: a missing one fails here, at start, not at its first call mid-run. */
  requireRoles?: readonly Role[];
  /** Line of a key path in the source text (set by loadModelsConfig), so messages can say `models.yaml:12`. */
  locate?: (path: readonly PropertyKey[]) => number | undefined;
}

export interface ConfigProblem {
  /** Key path, or a chain of references for problems found by following one (`roles.critic -> models.x.apiKeyEnv`). */
  path: string;
  message: string;
  line?: number;
}

type Provider = z.infer<typeof providerSchema>;

/**
 * Validates a parsed models config and resolves it per role. Every problem found is reported at once, each naming
 * its key path (and line, when loaded from a file), so a typo or a missing key fails at start rather than mid-run.
 */
export function parseModelsConfig(value: unknown, options: ParseModelsConfigOptions = {}): ModelsConfig {
  const env = options.env ?? process.env;
  const problems: ConfigProblem[] = [];
  const report = (path: readonly PropertyKey[], message: string, display?: string) => {
    const line = options.locate?.(path);
    problems.push({ path: display ?? (formatPath(path) || "(root)"), message, ...(line ? { line } : {}) });
  };

  const top = modelsConfigFileSchema.safeParse(value);
  if (!top.success) reportZodIssues(top.error.issues, modelsConfigFileSchema, [], report);

  // Inline role entries are validated even when the top level has problems, so one run shows every typo.
  const rawRoles = isRecord(value) && isRecord(value.roles) ? value.roles : {};
  const inlineEntries = new Map<Role, ModelEntryInput>();
  for (const role of roleSchema.options) {
    const roleValue = rawRoles[role];
    if (roleValue === undefined || typeof roleValue === "string") continue;
    if (!isRecord(roleValue)) {
      report(["roles", role], "must be the name of an entry in models: or an inline model entry");
      continue;
    }
    const parsed = modelEntrySchema.safeParse(roleValue);
    if (parsed.success) inlineEntries.set(role, parsed.data);
    else reportZodIssues(parsed.error.issues, modelEntrySchema, ["roles", role], report);
  }
  if (!top.success) throw configError(problems, options.source);

  const providers = top.data.providers ?? {};
  const models = top.data.models ?? {};
  const resolveContext: ResolveContext = { providers, env, report };

  // Entries no role uses still get their references checked: a typo there is a typo all the same.
  for (const [name, entry] of Object.entries(models)) {
    if (entry.provider !== undefined && !(entry.provider in providers)) {
      report(["models", name, "provider"], unknownName("provider", entry.provider, Object.keys(providers)));
    }
  }

  const roles: ModelsConfig["roles"] = {};
  for (const role of roleSchema.options) {
    const roleValue = top.data.roles[role];
    if (roleValue === undefined) {
      if (options.requireRoles?.includes(role))
        report(["roles", role], "not configured, and this run needs it");
      continue;
    }
    if (typeof roleValue === "string") {
      const entry = models[roleValue];
      if (!entry) {
        report(["roles", role], unknownName("model entry", roleValue, Object.keys(models)));
        continue;
      }
      const resolved = resolveEntry(entry, ["models", roleValue], `roles.${role} -> `, resolveContext);
      if (resolved) roles[role] = resolved;
    } else {
      const entry = inlineEntries.get(role);
      if (!entry) continue;
      const resolved = resolveEntry(entry, ["roles", role], "", resolveContext);
      if (resolved) roles[role] = resolved;
    }
  }

  if (problems.length > 0) throw configError(problems, options.source);
  return { ...(options.source ? { source: options.source } : {}), roles };
}

interface ResolveContext {
  providers: Record<string, Provider>;
  env: Record<string, string | undefined>;
  report: (path: readonly PropertyKey[], message: string, display?: string) => void;
}

function resolveEntry(
  entry: ModelEntryInput,
  entryPath: readonly string[],
  chain: string,
  { providers, env, report }: ResolveContext,
): ModelEntry | undefined {
  const entryRef = entryPath.join(".");
  let provider: Provider | undefined;
  if (entry.provider !== undefined) {
    provider = providers[entry.provider];
    // An unknown provider of a models: entry was reported already; an inline one is reported here.
    if (!provider) {
      if (entryPath[0] === "roles") {
        report([...entryPath, "provider"], unknownName("provider", entry.provider, Object.keys(providers)));
      }
      return undefined;
    }
  }
  // A setting on the entry wins over its provider's; messages name where the value actually came from.
  const fromProvider = (key: string) => `${chain}${entryRef} -> providers.${entry.provider}.${key}`;
  const baseUrlSource =
    entry.baseUrl !== undefined
      ? { text: entry.baseUrl, path: [...entryPath, "baseUrl"], display: `${chain}${entryRef}.baseUrl` }
      : provider
        ? {
            text: provider.baseUrl,
            path: ["providers", entry.provider ?? "", "baseUrl"],
            display: fromProvider("baseUrl"),
          }
        : undefined;
  if (!baseUrlSource) {
    report(entryPath, "needs a provider or a baseUrl", `${chain}${entryRef}`);
    return undefined;
  }
  let ok = true;
  const interpolated = interpolateEnv(baseUrlSource.text, env);
  let baseUrl = "";
  if (!interpolated.ok) {
    report(baseUrlSource.path, `(${interpolated.missing.join(", ")} not set)`, baseUrlSource.display);
    ok = false;
  } else {
    baseUrl = interpolated.value.replace(/\/+$/, "");
    if (!isHttpUrl(baseUrl)) {
      report(baseUrlSource.path, `must be an http(s) URL, got "${baseUrl}"`, baseUrlSource.display);
      ok = false;
    }
  }

  const apiKeyEnv = entry.apiKeyEnv ?? provider?.apiKeyEnv;
  if (apiKeyEnv !== undefined && !env[apiKeyEnv]) {
    const fromEntry = entry.apiKeyEnv !== undefined;
    report(
      fromEntry ? [...entryPath, "apiKeyEnv"] : ["providers", entry.provider ?? "", "apiKeyEnv"],
      `(${apiKeyEnv} not set)`,
      fromEntry ? `${chain}${entryRef}.apiKeyEnv` : fromProvider("apiKeyEnv"),
    );
    ok = false;
  }
  if (!ok) return undefined;

  const prices = entry.prices ?? { input: 0, output: 0 };
  return {
    ref: entryRef,
    ...(entry.provider !== undefined ? { provider: entry.provider } : {}),
    baseUrl,
    ...(apiKeyEnv !== undefined ? { apiKeyEnv } : {}),
    model: entry.model,
    ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
    ...(entry.maxTokens !== undefined ? { maxTokens: entry.maxTokens } : {}),
    timeoutMs: entry.timeoutMs ?? modelEntryDefaults.timeoutMs,
    maxRetries: entry.maxRetries ?? modelEntryDefaults.maxRetries,
    structuredOutput:
      entry.structuredOutput ?? provider?.structuredOutput ?? modelEntryDefaults.structuredOutput,
    supportsSeed: entry.supportsSeed ?? provider?.supportsSeed ?? modelEntryDefaults.supportsSeed,
    refuses: {
      roles: [...new Set([...(provider?.refuses?.roles ?? []), ...(entry.refuses?.roles ?? [])])],
      params: [...new Set([...(provider?.refuses?.params ?? []), ...(entry.refuses?.params ?? [])])],
    },
    prices: { input: prices.input, cachedInput: prices.cachedInput ?? prices.input, output: prices.output },
    params: entry.params ?? {},
    batchSize: entry.batchSize ?? modelEntryDefaults.batchSize,
    ...(entry.dimensions !== undefined ? { dimensions: entry.dimensions } : {}),
  };
}

function reportZodIssues(
  issues: readonly z.core.$ZodIssue[],
  schema: z.ZodType,
  prefix: readonly PropertyKey[],
  report: (path: readonly PropertyKey[], message: string) => void,
): void {
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      const known = knownKeysAt(schema, issue.path);
      for (const key of issue.keys) {
        const suggestion = didYouMean(key, known);
        const hint = suggestion
          ? ` (did you mean "${suggestion}"?)`
          : known.length > 0
            ? ` (known keys: ${known.join(", ")})`
            : "";
        report([...path, key], `unknown key "${key}"${hint}`);
      }
    } else if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) {
      report(path, `required (${issue.expected})`);
    } else {
      report(path, issue.message);
    }
  }
}

/** Keys the schema allows at a path, for "did you mean" hints (walks objects, records and optional wrappers). */
function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType | undefined = unwrap(schema);
  for (const key of path) {
    if (current instanceof z.ZodObject) current = unwrap(current.shape[String(key)] as z.ZodType | undefined);
    else if (current instanceof z.ZodRecord) current = unwrap(current.valueType as z.ZodType);
    else return [];
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodDefault ||
    current instanceof z.ZodNullable
  ) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

function unknownName(kind: string, name: string, known: readonly string[]): string {
  const suggestion = didYouMean(name, known);
  if (suggestion) return `unknown ${kind} "${name}" (did you mean "${suggestion}"?)`;
  return known.length > 0
    ? `unknown ${kind} "${name}" (known: ${known.join(", ")})`
    : `unknown ${kind} "${name}"`;
}

function configError(problems: ConfigProblem[], source: string | undefined): TfgrpoError {
  const where = source ?? "models config";
  const lines = problems.map((problem) => {
    const location = problem.line ? `${where}:${problem.line}: ` : "";
    const separator = problem.message.startsWith("(") ? " " : ": ";
    return `  ${location}${problem.path}${separator}${problem.message}`;
  });
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return new TfgrpoError(
    "invalid_config",
    `invalid models config ${where} (${count}):\n${lines.join("\n")}`,
    {
      details: { ...(source ? { file: source } : {}), problems },
    },
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
