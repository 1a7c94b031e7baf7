import { ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { capText } from "./cap-text.js";

export interface ModuleToolLimits {
  /** A call still running after this long is stopped (its signal aborted) and answered with a tool error. */
  timeoutMs: number;
  /** A longer result is cut (head and tail kept) before anyone reads it. */
  maxOutputChars: number;
}

const timedOut = Symbol("timed out");

/**
 * A module's LangChain tool under the limits an MCP tool has: a per-call time limit and an output cap. The tool
 * itself is kept (name, description, schema: what the model is shown); only `invoke` is wrapped. Past the limit
 * the call's signal is aborted (a tool that takes `config.signal` stops its work) and the model reads
 * `Error: <tool> did not finish within N ms ...`, whether or not the tool honoured the signal; its late result is
 * dropped. The caller's own abort still ends the call with an exception, as for every tool. (Only `invoke` is
 * limited: it is what the actor and LangGraph's ToolNode call.)
 */
export function limitModuleTool(
  tool: StructuredToolInterface,
  module: string,
  limits: ModuleToolLimits,
): StructuredToolInterface {
  const invoke = tool.invoke.bind(tool);
  const overTime =
    `Error: ${tool.name} did not finish within ${limits.timeoutMs} ms (the timeoutMs of tool module ` +
    `"${module}"); the call was stopped. Try a smaller request or another way.`;
  const limited = Object.create(tool) as StructuredToolInterface;
  limited.invoke = (async (input: unknown, config?: { signal?: AbortSignal }) => {
    const caller = config?.signal;
    caller?.throwIfAborted();
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<typeof timedOut>((resolve) => {
      timer = setTimeout(() => {
        deadline.abort(
          new Error(`${tool.name} did not finish within ${limits.timeoutMs} ms (tool module "${module}")`),
        );
        resolve(timedOut);
      }, limits.timeoutMs);
    });
    const signal = caller ? AbortSignal.any([caller, deadline.signal]) : deadline.signal;
    const call = invoke(input as never, { ...config, signal } as never);
    try {
      const outcome = await Promise.race([call, expired]);
      if (outcome === timedOut) {
        // The tool may still settle later: nobody reads it.
        call.catch(() => undefined);
        return answer(input, overTime, "error");
      }
      return capOutput(outcome, limits.maxOutputChars);
    } catch (error) {
      // The tool gave up on our deadline's abort (LangChain rejects a tool call whose signal aborts).
      if (deadline.signal.aborted && !caller?.aborted) {
        return answer(input, overTime, "error");
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }) as StructuredToolInterface["invoke"];
  return limited;
}

/** The tool's answer, as a ToolMessage when it was invoked with a tool call (as LangChain tools answer then). */
function answer(input: unknown, content: string, status: "error" | "success"): unknown {
  const call = input as { type?: unknown; id?: unknown } | null;
  if (call && typeof call === "object" && call.type === "tool_call" && typeof call.id === "string") {
    return new ToolMessage({
      content,
      tool_call_id: call.id,
      name: (input as { name?: string }).name ?? "",
      status,
    });
  }
  return content;
}

/** Cuts a text result, or a ToolMessage's text; another value (structured content) is cut as its JSON. */
function capOutput(output: unknown, max: number): unknown {
  if (typeof output === "string") return capText(output, max);
  if (output instanceof ToolMessage) {
    if (typeof output.content === "string" && output.content.length > max) {
      return new ToolMessage({
        content: capText(output.content, max),
        tool_call_id: output.tool_call_id,
        ...(output.name === undefined ? {} : { name: output.name }),
        ...(output.status === undefined ? {} : { status: output.status }),
      });
    }
    return output;
  }
  if (output === undefined || output === null) return output;
  let json: string | undefined;
  try {
    json = JSON.stringify(output);
  } catch {
    return output;
  }
  return json !== undefined && json.length > max ? capText(json, max) : output;
}
