import { z } from "zod";
import { clientGateCommandOptionsShape } from "./client-gate-command-options.js";

/**
 * The options of `tfgrpo mcp`: the schema the commander declaration (cli-commands/mcp.ts) is checked against, key for
 * key (command-options.test.ts), and that the parsed options go through before the command runs.
 */
export const mcpCommandOptionsSchema = z
  .object({
    domain: z.string(),
    /** Serve Streamable HTTP on this port (0: a free one) instead of stdio. */
    http: z.number().int().nonnegative().optional(),
    host: z.string().optional(),
    db: z.string().optional(),
    /** models.yaml with an `embedder` role, for similarity; falls back to $TFGRPO_CONFIG; optional. */
    config: z.string().optional(),
    /** With --http: open sessions at most (default 100). */
    maxSessions: z.number().int().positive().optional(),
    /** With --http: a session idle this many seconds is closed (default 1800). */
    sessionIdle: z.number().positive().optional(),
    ...clientGateCommandOptionsShape,
  })
  .strict();

export type McpOptions = z.infer<typeof mcpCommandOptionsSchema>;
