import { TfgrpoError } from "@tfgrpo/protocol";

/**
 * A refused tool call (τ²'s ValueError): the precondition that failed, in the benchmark's words, because the model
 * reads it as the tool result (`Error: <message>`).
 */
export function retailToolError(message: string, tool: string): TfgrpoError {
  return new TfgrpoError("tool_error", message, { details: { tool } });
}
