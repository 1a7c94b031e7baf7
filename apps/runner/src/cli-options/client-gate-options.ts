import { readUserTextSync } from "@tfgrpo/protocol";
import {
  type ClientGateOptions,
  type ClientTokens,
  defaultRateLimit,
  parseClientTokens,
} from "@tfgrpo/serving";
import type { ClientGateCliOptions } from "./client-gate-declarations.js";

/** The gate's settings from the options and the environment; a bad tokens file fails here, naming its line. */
export function resolveClientGate(options: ClientGateCliOptions, env: NodeJS.ProcessEnv): ClientGateOptions {
  let clientTokens: ClientTokens | undefined;
  if (options.clientTokens) {
    const text = readUserTextSync(options.clientTokens, {
      what: "client tokens",
      code: "invalid_config",
      option: "--client-tokens",
    });
    clientTokens = parseClientTokens(text, options.clientTokens);
  } else if (env.TFGRPO_CLIENT_TOKENS) {
    clientTokens = parseClientTokens(env.TFGRPO_CLIENT_TOKENS, "TFGRPO_CLIENT_TOKENS", { separator: "," });
  }
  return {
    ...(clientTokens ? { clientTokens } : {}),
    rateLimit: {
      perSecond: options.rateLimit ?? defaultRateLimit.perSecond,
      burst: options.rateBurst ?? defaultRateLimit.burst,
    },
  };
}

/** One line for the startup log: who may call and how often. */
export function describeClientGate(gate: ClientGateOptions): string {
  const clients = gate.clientTokens
    ? `${gate.clientTokens.clients.length} client tokens`
    : "anonymous clients";
  const limit =
    gate.rateLimit === false || gate.rateLimit?.perSecond === 0
      ? "no rate limit"
      : `rate limit ${gate.rateLimit?.perSecond}/s burst ${gate.rateLimit?.burst} per client`;
  return `${clients}, ${limit}`;
}
