import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import {
  domainSchema,
  getExperiencesReplySchema,
  getExperiencesRequestSchema,
  reportOutcomeReplySchema,
  reportOutcomeRequestSchema,
  TfgrpoError,
} from "@tfgrpo/protocol";
import type { LibraryService } from "../service/library-service.js";

/**
 * The tool's text when a selection shows nothing: an empty library, or every entry of this request in the withheld arm
 * of its exposure (the structured reply's promptBlock is then "").
 */
export const emptyPromptBlockText = "(no experiences for this task)";

export interface CreateMcpServerOptions {
  service: LibraryService;
  /** The domain tools default to and resources are listed for (`tfgrpo mcp --domain D`). */
  domain: string;
  /** Server name and version announced to clients. */
  name?: string;
  version?: string;
  /** The client this server's session belongs to (a client token's name): stored with its selections and outcomes. */
  client?: string;
}

/** `tfgrpo://library/math/head`, `tfgrpo://library/math/v/3`. */
export const headResourceUri = (domain: string) => `tfgrpo://library/${domain}/head`;
export const versionResourceUri = (domain: string, version: number) =>
  `tfgrpo://library/${domain}/v/${version}`;

// The tools' arguments: the wire schemas, with the domain optional (it defaults to the server's).
const getExperiencesInput = getExperiencesRequestSchema.extend({
  domain: domainSchema.optional().describe("Library domain; default: the server's --domain"),
});

/**
 * An MCP server over the library service: tools `get_experiences` and `report_outcome`, resources for the domain's
 * head and each of its versions (JSON). One server per client connection (an MCP server has one transport); they
 * all share the service, so every client's reports land in the same store exactly once.
 *
 * Bad arguments fail the one call with an MCP tool error naming the field (the SDK's input validation, or the
 * service's `invalid_input`), a repeated report with a `conflict` tool error; the server keeps serving.
 */
export function createLibraryMcpServer(options: CreateMcpServerOptions): McpServer {
  const { service, domain } = options;
  const context = options.client === undefined ? {} : { client: options.client };
  const server = new McpServer(
    { name: options.name ?? "tfgrpo-library", version: options.version ?? "0.1.0" },
    {
      instructions:
        `Experience library "${domain}" (Training-Free GRPO). Before a task, call get_experiences with the task text ` +
        "and add its promptBlock to your system prompt; after it, call report_outcome with the selectionId and the " +
        "result (success or reward), so the library learns which lessons help.",
    },
  );

  server.registerTool(
    "get_experiences",
    {
      title: "Get experiences",
      description:
        "Select the learned experiences to use for one task (relevance + proven usefulness, at least one new entry " +
        "being tried). Returns the entries with their ids, a selectionId to report the outcome with, and a " +
        "promptBlock to append to the system prompt.",
      inputSchema: getExperiencesInput,
      outputSchema: getExperiencesReplySchema,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) =>
      toolResult(
        () => service.getExperiences({ ...args, domain: args.domain ?? domain }, context),
        (reply) => reply.promptBlock || emptyPromptBlockText,
      ),
  );

  server.registerTool(
    "report_outcome",
    {
      title: "Report outcome",
      description:
        "Report how the task of one get_experiences call went: reward (0..1) or success, optional feedback, " +
        "trajectory or summary, and the ids of the experiences used. Report it whenever you know: right after the " +
        "run, or later once your own system shows the result (within the server's report deadline, default 1 h). " +
        "Each selectionId is counted once.",
      inputSchema: reportOutcomeRequestSchema,
      outputSchema: reportOutcomeReplySchema,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) =>
      toolResult(
        () => service.reportOutcome(args, context),
        (reply) =>
          `recorded: ${reply.success ? "success" : "failure"} (reward ${reply.reward}) for ${reply.domain}` +
          `${reply.version === null ? "" : `@v${reply.version}`}; credited ${reply.creditedIds.join(", ") || "nothing"}`,
      ),
  );

  server.registerResource(
    "library-head",
    headResourceUri(domain),
    {
      title: `${domain} library (head)`,
      description: `The committed head of the ${domain} experience library, with every entry's status and stats`,
      mimeType: "application/json",
    },
    async (uri) => libraryResource(service, uri.href, domain, undefined),
  );

  server.registerResource(
    "library-version",
    new ResourceTemplate("tfgrpo://library/{domain}/v/{version}", {
      list: async () => ({
        resources: (await service.listVersions(domain)).map((info) => ({
          uri: versionResourceUri(domain, info.version),
          name: `${domain}@v${info.version}`,
          description: `${info.state}${info.message ? `: ${info.message}` : ""}`,
          mimeType: "application/json",
        })),
      }),
    }),
    {
      title: "Library version",
      description: "One immutable version of an experience library (tfgrpo://library/<domain>/v/<n>)",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const version = Number(variables.version);
      if (!Number.isInteger(version) || version < 1) {
        throw new TfgrpoError("invalid_input", `${uri.href}: the version must be a whole number >= 1`);
      }
      return libraryResource(service, uri.href, String(variables.domain), version);
    },
  );

  return server;
}

async function toolResult<T extends Record<string, unknown>>(
  call: () => Promise<T>,
  text: (reply: T) => string,
): Promise<CallToolResult> {
  try {
    const reply = await call();
    return { content: [{ type: "text", text: text(reply) }], structuredContent: reply };
  } catch (error) {
    if (!TfgrpoError.isInstance(error)) throw error;
    return { content: [{ type: "text", text: `${error.code}: ${error.message}` }], isError: true };
  }
}

async function libraryResource(
  service: LibraryService,
  uri: string,
  domain: string,
  version: number | undefined,
): Promise<ReadResourceResult> {
  const parsed = domainSchema.safeParse(domain);
  if (!parsed.success) throw new TfgrpoError("invalid_input", `${uri}: not a library domain`);
  const { snapshot, info } = await service.getLibrary({
    domain,
    ...(version === undefined ? {} : { version }),
  });
  const body = {
    domain,
    version: snapshot.version,
    state: info.state,
    parent: info.parent,
    createdAt: info.createdAt,
    ...(info.message ? { message: info.message } : {}),
    entries: snapshot.experiences.map((entry) => ({
      id: entry.id,
      text: entry.text,
      status: entry.status,
      ...(entry.scope ? { scope: entry.scope } : {}),
      ...(entry.conflictGroup ? { conflictGroup: entry.conflictGroup } : {}),
      stats: entry.stats,
    })),
  };
  return { contents: [{ uri, mimeType: "application/json", text: `${JSON.stringify(body, null, 2)}\n` }] };
}
