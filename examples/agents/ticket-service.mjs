// The team's ticket service for the served examples (served-tickets-agent.mjs): examples/tickets/tickets-server.mjs
// over HTTP (JSON-RPC; each session holds its own tickets), a session client (its tools, also as LangChain tools), and
// the team's own check of a reassignment, read back from the service after the run.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** A session with the team's ticket service (JSON-RPC over HTTP; each session holds its own tickets). */
export async function connectTickets(url) {
  let session = null;
  let next = 0;
  const call = async (method, params) => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(session ? { "mcp-session-id": session } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++next, method, params }),
    });
    session ??= response.headers.get("mcp-session-id");
    const reply = await response.json();
    if (reply.error) throw new Error(`ticket service ${url}: ${reply.error.message}`);
    return reply.result;
  };
  await call("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "helpdesk", version: "1.0.0" },
  });
  const callTool = async (name, args) => {
    const result = await call("tools/call", { name, arguments: args });
    const text = result.content.map((part) => part.text ?? "").join("");
    // A refusal goes back to the model as a tool error (createAgent hands it over as the tool's result).
    if (result.isError) throw new Error(text);
    return text;
  };
  return {
    callTool,
    /** The service's tools (name, description, inputSchema); its environment_* controls are tfgrpo's, not an agent's. */
    async toolSpecs() {
      const { tools } = await call("tools/list", {});
      return tools.filter((spec) => !spec.name.startsWith("environment_"));
    },
    /** The same as LangChain tools. */
    async langChainTools() {
      const { tool } = await import("langchain");
      return (await this.toolSpecs()).map((spec) =>
        tool((args) => callTool(spec.name, args), {
          name: spec.name,
          description: spec.description,
          schema: spec.inputSchema,
        }),
      );
    },
    close: () => fetch(url, { method: "DELETE", headers: { "mcp-session-id": session ?? "" } }),
  };
}

/** The team's own check, after the run: is the ticket assigned to the person's user id in the service? */
export async function reassignedOutcome(tickets, ticketId, person) {
  const [user] = JSON.parse(await tickets.callTool("find_user", { name: person }));
  const ticket = JSON.parse(await tickets.callTool("list_tickets", {})).find((t) => t.id === ticketId);
  const success = user !== undefined && ticket?.assignee === user.id;
  return { success, feedback: `${ticketId} is assigned to ${ticket?.assignee ?? "nobody"}` };
}

/** Starts the example ticket service (examples/tickets/tickets-server.mjs --http on a free port). */
export async function startTicketService() {
  const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../tickets/tickets-server.mjs");
  const child = spawn(process.execPath, [server, "--http", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the ticket service exited (${code}) before listening`)));
  });
  return { url: JSON.parse(line).url, close: () => child.kill() };
}
