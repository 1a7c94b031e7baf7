import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  isBuiltInTool as isBuiltIn,
  pointerSegment,
  type StateChange,
  stateChangeSchema,
  type Task,
  TfgrpoError,
  type ToolEntry,
} from "@tfgrpo/protocol";
import { z } from "zod";
import { createJsonSchemaTool } from "../mcp/json-schema-tool.js";
import type { McpConnection } from "../mcp/mcp-connection.js";
import { loadToolModule } from "../mcp/tool-module.js";
import { toolSchemaProblem } from "../mcp/tool-schema-problem.js";
import { createToolResources } from "./tool-resources.js";
import { defaultDomainTools, type McpServerConfig } from "./tools-config.js";
import { createToolset, type Toolset, type ToolsetOptions } from "./toolset.js";

/** Tools of an MCP server whose names start with this are tfgrpo's controls, never shown to the model. */
export const environmentToolPrefix = "environment_";
export const environmentResetTool = "environment_reset";
export const environmentStateTool = "environment_state";
export const environmentChangesTool = "environment_changes";

/** The attempt's own environment (docs/tools.md "One environment per attempt"). */
export interface AttemptEnvironment {
  /**
   * `environment_state` right after `environment_reset` (by server name when several servers have state); not read
   * (undefined) when every stateful server reports its own changes (`changes`).
   */
  readonly initialState: unknown;
  /** `environment_state` now; throws `environment_unavailable` when a server cannot answer. */
  state(): Promise<unknown>;
  /**
   * Present when every stateful server offers `environment_changes`: the changes since the reset as the servers
   * report them (paths under `/<server>` when several), instead of two reads of the whole state and a diff.
   */
  changes?(): Promise<StateChange[]>;
}

export interface AttemptToolset extends Omit<Toolset, "names"> {
  readonly names: readonly ToolEntry[];
  /** Present when a server of the toolset offers `environment_state`. */
  readonly environment: AttemptEnvironment | undefined;
  /** The attempt's own servers (`environment: process | session`): a process id or a session id each. */
  readonly servers: readonly { server: string; pid: number | null; sessionId: string | undefined }[];
}

export interface OpenToolsetOptions extends Omit<ToolsetOptions, "tools"> {
  tools?: readonly ToolEntry[];
  /** The attempt's task: sent to `environment_reset`. Without it (a config check) nothing is reset. */
  task?: Task;
  signal?: AbortSignal;
}

/**
 * The tools of one attempt: built-ins, the tools of MCP servers (`mcp:<server>`) and of tool modules
 * (`module:<name>`). Servers with `environment: process | session` get a connection of their own (a fresh process,
 * a fresh session) and are reset with the task; `shared` servers use the run's one connection. A config the model
 * provider would refuse, or a server that does not start, fails here with one line naming the domain, the server and
 * the tool, before the model is called.
 */
export async function openToolset(options: OpenToolsetOptions): Promise<AttemptToolset> {
  const ownsResources = options.resources === undefined;
  const resources = options.resources ?? createToolResources(options.config ?? {});
  const { domain } = options;
  const entries: readonly ToolEntry[] =
    options.tools ?? resources.config.domains?.[domain] ?? defaultDomainTools[domain] ?? [];
  const builtIns = entries.filter(isBuiltIn);
  const opened: McpConnection[] = [];
  const configOf = new Map<McpConnection, McpServerConfig>();
  /** Own connections on which a call failed or was cut off: closed after the attempt, never reused. */
  const tainted = new Set<McpConnection>();
  const closers: Array<() => Promise<void>> = [];
  const tools: StructuredToolInterface[] = [];
  const owners = new Map<string, string>();
  const stateful: McpConnection[] = [];
  const add = (tool: StructuredToolInterface, owner: string) => {
    const other = owners.get(tool.name);
    if (other !== undefined) {
      throw new TfgrpoError(
        "invalid_config",
        `domain ${domain}: tool "${tool.name}" is offered by both ${other} and ${owner}`,
        { details: { domain, tool: tool.name } },
      );
    }
    owners.set(tool.name, owner);
    tools.push(tool);
  };
  /** A tool the model provider would refuse fails the domain's config, naming the server and the tool. */
  const checkTools = (connection: McpConnection) => {
    for (const info of connection.tools) {
      if (info.name.startsWith(environmentToolPrefix)) continue;
      const problem = toolSchemaProblem(info.name, info.description, info.inputSchema);
      if (problem) {
        throw new TfgrpoError(
          "invalid_config",
          `domain ${domain}: MCP server "${connection.server}": tool "${info.name}": ${problem}`,
          { details: { domain, server: connection.server, tool: info.name } },
        );
      }
    }
  };
  const closeAll = async (clean: boolean) => {
    await Promise.all([
      ...closers.map((close) => close().catch(() => {})),
      ...opened.map((connection) =>
        resources.environments.release(
          connection.server,
          connection,
          configOf.get(connection)!,
          clean && !tainted.has(connection),
        ),
      ),
    ]);
  };

  try {
    if (builtIns.length > 0) {
      const builtInSet = createToolset({ domain, resources, tools: builtIns });
      closers.push(() => builtInSet.close());
      for (const tool of builtInSet.tools)
        add(tool as unknown as StructuredToolInterface, "the built-in tools");
    }
    for (const entry of entries) {
      if (isBuiltIn(entry)) continue;
      const [kind, name] = entry.split(":") as ["mcp" | "module", string];
      if (kind === "module") {
        const config = resources.config.modules?.[name];
        if (!config)
          throw unknownReference(domain, entry, "modules", Object.keys(resources.config.modules ?? {}));
        const loaded = await loadToolModule(
          name,
          config.path,
          { domain, ...(options.task ? { task: options.task } : {}) },
          config,
        );
        closers.push(loaded.close);
        for (const tool of loaded.tools) add(tool, `tool module "${name}"`);
        continue;
      }
      const config = resources.config.servers?.[name];
      if (!config)
        throw unknownReference(domain, entry, "servers", Object.keys(resources.config.servers ?? {}));
      const own = config.environment !== "shared";
      const connection = own
        ? await resources.environments.open(name, config, domain, {
            ...(options.signal ? { signal: options.signal } : {}),
            // The tools are checked before the reset: a config the provider would refuse is no server failure.
            prepare: async (opened) => {
              checkTools(opened);
              const { task } = options;
              if (task && opened.tools.some((tool) => tool.name === environmentResetTool))
                await control(opened, environmentResetTool, { task }, domain, options.signal);
            },
          })
        : await resources.mcp.get(name, config, domain);
      if (own) {
        opened.push(connection);
        configOf.set(connection, config);
      } else checkTools(connection);
      for (const info of connection.tools) {
        if (info.name.startsWith(environmentToolPrefix)) continue;
        // A shared connection that died is dropped, so the next attempt reconnects instead of failing too; an own
        // connection with a failed call is closed after its attempt, never reused.
        const onFailure = (error: unknown) => {
          if (own) tainted.add(connection);
          else if (TfgrpoError.hasCode(error, "environment_unavailable")) resources.mcp.forget(name);
        };
        add(mcpTool(connection, info, config, onFailure), `MCP server "${name}"`);
      }
      const names = new Set(connection.tools.map((tool) => tool.name));
      if (names.has(environmentStateTool)) stateful.push(connection);
    }
    /**
     * One control call on every stateful server, each answer parsed; a server that fails it is closed after the
     * attempt. Not under the attempt's signal: a timed-out attempt still reports its end state (timeoutMs bounds it).
     */
    const askEach = <T>(tool: string, parse: (text: string, server: string) => T): Promise<T[]> =>
      Promise.all(
        stateful.map(async (connection) => {
          try {
            return parse(await control(connection, tool, {}, domain, undefined), connection.server);
          } catch (error) {
            tainted.add(connection);
            throw error;
          }
        }),
      );
    const readState = async (): Promise<unknown> => {
      const states = await askEach(environmentStateTool, parseState);
      if (stateful.length === 1) return states[0];
      return Object.fromEntries(stateful.map((connection, index) => [connection.server, states[index]]));
    };
    const readChanges = async (): Promise<StateChange[]> => {
      const lists = await askEach(environmentChangesTool, (text, server) =>
        parseChanges(text, domain, server),
      );
      if (stateful.length === 1) return lists[0]!;
      return stateful.flatMap((connection, index) =>
        lists[index]!.map((change) => ({
          ...change,
          path: `${pointerSegment(connection.server)}${change.path}`,
        })),
      );
    };
    // Servers that report their own changes are never asked for their whole state at the start.
    const reportsChanges =
      stateful.length > 0 &&
      stateful.every((connection) => connection.tools.some((tool) => tool.name === environmentChangesTool));
    const environment: AttemptEnvironment | undefined =
      stateful.length === 0
        ? undefined
        : reportsChanges
          ? { initialState: undefined, state: readState, changes: readChanges }
          : { initialState: await readState(), state: readState };
    return {
      domain,
      names: [...entries],
      tools: tools as never,
      environment,
      servers: opened.map(({ server, pid, sessionId }) => ({ server, pid, sessionId })),
      async close() {
        await closeAll(true);
        if (ownsResources) await resources.close();
      },
    };
  } catch (error) {
    await closeAll(false);
    if (ownsResources) await resources.close();
    throw error;
  }
}

/** Opens a domain's toolset without a task (nothing is reset) and closes it: the check before any rollout. */
export async function checkToolset(options: Omit<OpenToolsetOptions, "task">): Promise<string[]> {
  const toolset = await openToolset(options);
  try {
    return toolset.tools.map((tool) => tool.name);
  } finally {
    await toolset.close();
  }
}

function mcpTool(
  connection: McpConnection,
  info: { name: string; description: string; inputSchema: Record<string, unknown> },
  config: McpServerConfig,
  onFailure: (error: unknown) => void,
) {
  return createJsonSchemaTool({
    name: info.name,
    description: info.description,
    inputSchema: info.inputSchema,
    maxOutputChars: config.maxOutputChars,
    async run(input, { signal }) {
      try {
        const result = await connection.call(info.name, input, signal ? { signal } : {});
        return result.isError ? `Error: ${result.text}` : result.text;
      } catch (error) {
        onFailure(error);
        throw error;
      }
    },
  });
}

/** A control call (`environment_*`): any failure, an error result included, is the environment's. */
async function control(
  connection: McpConnection,
  tool: string,
  input: unknown,
  domain: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  const result = await connection.call(tool, input, signal ? { signal } : {});
  if (result.isError) {
    throw new TfgrpoError(
      "environment_unavailable",
      `domain ${domain}: MCP server "${connection.server}": ${tool} failed: ${result.text.slice(0, 300)}`,
      { details: { domain, server: connection.server, tool } },
    );
  }
  return result.text;
}

function parseState(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // A server may describe its state as text; the diff then compares the texts.
    return text;
  }
}

const changesSchema = z.array(stateChangeSchema);

/** A server's `environment_changes` answer; anything else is the environment's failure, naming the server. */
function parseChanges(text: string, domain: string, server: string): StateChange[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = changesSchema.safeParse(value);
  if (!parsed.success) {
    throw new TfgrpoError(
      "environment_unavailable",
      `domain ${domain}: MCP server "${server}": ${environmentChangesTool} did not answer a JSON list of changes ({ path, op, before, after }): ${text.slice(0, 200)}`,
      { details: { domain, server, tool: environmentChangesTool } },
    );
  }
  return parsed.data;
}

function unknownReference(domain: string, entry: string, section: string, known: string[]): TfgrpoError {
  return new TfgrpoError(
    "invalid_config",
    `domain ${domain}: tool entry ${entry} names nothing in tools.${section} (configured: ${known.join(", ") || "none"})`,
    { details: { domain, field: `tools.${section}`, entry } },
  );
}
