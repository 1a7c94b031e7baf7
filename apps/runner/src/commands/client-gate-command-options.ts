import { z } from "zod";

/** The options of a server that agents call (`tfgrpo mcp`, `serve --role library`), part of both commands' schemas. */
export const clientGateCommandOptionsShape = {
  /** File of `name:token` lines; falls back to $TFGRPO_CLIENT_TOKENS (`name:token,name:token`). */
  clientTokens: z.string().optional(),
  /** Requests per second per client; 0: no limit. */
  rateLimit: z.number().nonnegative().optional(),
  /** Burst per client. */
  rateBurst: z.number().int().positive().optional(),
};

const clientGateCommandOptionsSchema = z.object(clientGateCommandOptionsShape).strict();

export type ClientGateCliOptions = z.infer<typeof clientGateCommandOptionsSchema>;
