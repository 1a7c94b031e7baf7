/**
 * Values the help text shows whose source of truth lives in a package that costs hundreds of milliseconds to import
 * (zod schemas, LangChain, the studio server). The command declarations are built at every start, before anything
 * loads those packages (only running a command does), so the values are written here; help-defaults.test.ts checks
 * each agrees with its source.
 */

/** `@tfgrpo/curator` defaultValidationSamples: samples per validation task of the acceptance gate. */
export const defaultValidationSamples = 2;

/** `@tfgrpo/protocol` gateRuleSchema.options: the rules `learn --gate` offers (the first is the default). */
export const gateRules = ["sequential", "paired-t", "paper"] as const;

/** `@tfgrpo/studio` defaultStudioPort. */
export const defaultStudioPort = 4477;

/** `@tfgrpo/tools` toolNames. */
export const toolNames = ["code_interpreter", "web_search", "web_fetch"] as const;

/** `@tfgrpo/sim` suiteSplits. */
export const suiteSplits = ["train", "val", "test"] as const;

/** `@tfgrpo/protocol` experienceStatusSchema.options. */
export const experienceStatuses = ["candidate", "active", "probation", "archived"] as const;

/** `@tfgrpo/serving` defaultRateLimit: requests per second and burst per client of a server agents call. */
export const defaultRateLimit = { perSecond: 100, burst: 200 } as const;
