import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  type ActorToolset,
  type EnvironmentRecordLimits,
  recordAttemptEnvironment,
  type ToolName,
  type ToolsetFactory,
} from "@tfgrpo/actor";
import { type AgentEnvironment, type EnvironmentRecord, type Task, TfgrpoError } from "@tfgrpo/protocol";
import { type ServedTools, servedToolOf, serveToolsOverMcp } from "@tfgrpo/tools";

/** One attempt's environment, opened by tfgrpo for a team's agent (see openAttemptEnvironment). */
export interface AttemptEnvironment {
  /** The attempt's tools as LangChain tools (what `input.tools` is). */
  tools: StructuredToolInterface[];
  /** What the agent gets as `input.environment`. */
  agent: AgentEnvironment;
  /** A tool call that found the environment gone (`environment_unavailable`): the attempt failed as infrastructure. */
  failure(): Error | undefined;
  /** The environment's change since reset and its final state, when its servers keep state (else undefined). */
  record(limits: EnvironmentRecordLimits): Promise<EnvironmentRecord | undefined>;
  close(): Promise<void>;
}

/**
 * Opens one attempt's environment with the factory tfgrpo's own actor uses (its `environment: process | session`
 * servers started or given a fresh session, and reset with the task), serves its tools on an MCP endpoint of the
 * attempt's own, and watches its tool calls for an environment that died. Throws what the factory throws
 * (`environment_unavailable` for a server that did not start or reset).
 */
export async function openAttemptEnvironment(
  factory: ToolsetFactory,
  domain: string,
  names: readonly ToolName[],
  context: { task: Task; signal: AbortSignal },
): Promise<AttemptEnvironment> {
  const toolset: ActorToolset = await factory(domain, names, context);
  let failure: Error | undefined;
  let served: ServedTools | undefined;
  try {
    const tools = toolset.tools.map((tool) =>
      watchForEnvironmentFailure(tool, (error) => (failure ??= error)),
    );
    const definitions = tools.map(servedToolOf);
    served = await serveToolsOverMcp(definitions, { name: domain });
    const { url } = served;
    const close = async () => {
      await served?.close();
      await toolset.close?.();
    };
    return {
      tools,
      agent: { url, mcpServers: { [domain]: { transport: "http", url } }, tools: definitions },
      failure: () => failure,
      async record(limits) {
        if (!toolset.environment) return undefined;
        // Read even after a timeout (the state call has its own deadline): the reward needs the end state.
        return recordAttemptEnvironment(toolset.environment, limits);
      },
      close,
    };
  } catch (error) {
    await served?.close();
    await toolset.close?.();
    throw error;
  }
}

/**
 * The tool, noting a call that found its environment gone: the agent's framework turns a tool's error into a message
 * for its model and goes on, but the attempt has failed as infrastructure, whatever the agent did next.
 */
function watchForEnvironmentFailure(
  tool: StructuredToolInterface,
  onFailure: (error: Error) => void,
): StructuredToolInterface {
  const invoke = tool.invoke.bind(tool);
  tool.invoke = (async (...args: Parameters<typeof invoke>) => {
    try {
      return await invoke(...args);
    } catch (error) {
      if (TfgrpoError.hasCode(error, "environment_unavailable")) onFailure(error as Error);
      throw error;
    }
  }) as typeof tool.invoke;
  return tool;
}
