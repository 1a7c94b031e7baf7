import { inSpan, safeParseJson, spanAttributes } from "@tfgrpo/protocol";

/**
 * Runs one tool call inside a span named after the tool. Tools that answer with a JSON result (the code interpreter's
 * `exitCode`, `killed`, `killedReason`) have those recorded on the span, so a slow or killed cell shows in the trace.
 */
export function tracedToolCall(tool: string, call: () => Promise<string>): Promise<string> {
  return inSpan(`tool ${tool}`, { attributes: { [spanAttributes.tool]: tool } }, async (span) => {
    const output = await call();
    if (!span.isRecording() || !output.startsWith("{")) return output;
    const parsed = safeParseJson<Record<string, unknown>>(output);
    if (!parsed.success || typeof parsed.value !== "object" || parsed.value === null) return output;
    const { exitCode, killedReason } = parsed.value;
    if (typeof exitCode === "number" || exitCode === null)
      span.setAttribute(spanAttributes.toolExitStatus, exitCode === null ? "killed" : exitCode);
    if (typeof killedReason === "string") span.setAttribute(spanAttributes.toolKillReason, killedReason);
    return output;
  });
}
