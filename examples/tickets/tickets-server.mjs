#!/usr/bin/env node
// A small stateful MCP service for tfgrpo's "Bring your own MCP server and reward" (docs/tools.md): a ticket system
// with users and tickets. No dependencies: MCP is JSON-RPC 2.0, here over stdio (newline-delimited JSON, the
// default) or Streamable HTTP (`--http PORT`, one state per Mcp-Session-Id).
//
// tfgrpo's contract: tools named environment_* are never shown to the model.
//   environment_reset {task}  -> the attempt's initial state (task.meta.initialState, else the seed data below)
//   environment_state {}      -> the current state as JSON text (the reward and the state diff read it)
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createInterface } from "node:readline";

const seedState = () => ({
  users: [
    { id: "u-alice", name: "Alice Chen" },
    { id: "u-bob", name: "Bob Diaz" },
    { id: "u-carol", name: "Carol Evans" },
  ],
  tickets: [
    { id: "T-1", title: "Printer jams on floor 2", status: "open", priority: "low", assignee: "u-alice" },
    { id: "T-2", title: "VPN drops every hour", status: "open", priority: "high", assignee: "u-alice" },
    { id: "T-3", title: "New laptop for intern", status: "open", priority: "medium", assignee: "u-bob" },
    { id: "T-4", title: "Reset 2FA for sales", status: "closed", priority: "medium", assignee: "u-alice" },
    { id: "T-5", title: "Projector bulb in room B", status: "open", priority: "low", assignee: "u-carol" },
  ],
});

const text = (value) => ({
  content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }],
});
const refuse = (message) => ({ content: [{ type: "text", text: message }], isError: true });

const tools = [
  {
    name: "find_user",
    description: "Find users by (part of) their name. Returns their ids, which update_ticket needs.",
    inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    run(state, { name }) {
      const found = state.users.filter((user) =>
        user.name.toLowerCase().includes(String(name).toLowerCase()),
      );
      return text(found.length > 0 ? found : `no user matches "${name}"`);
    },
  },
  {
    name: "list_tickets",
    description:
      "List tickets, optionally only those of one assignee (a user id) and/or one status (open, closed).",
    inputSchema: {
      type: "object",
      properties: { assignee: { type: "string" }, status: { type: "string", enum: ["open", "closed"] } },
    },
    run(state, { assignee, status }) {
      return text(
        state.tickets.filter(
          (ticket) =>
            (assignee === undefined || ticket.assignee === assignee) &&
            (status === undefined || ticket.status === status),
        ),
      );
    },
  },
  {
    name: "update_ticket",
    description:
      "Change a ticket's status (open, closed), priority (low, medium, high) or assignee (a user id).",
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string" },
        status: { type: "string", enum: ["open", "closed"] },
        priority: { type: "string", enum: ["low", "medium", "high"] },
        assignee: { type: "string", description: "A user id such as u-alice (see find_user)" },
      },
      required: ["id"],
    },
    run(state, { id, status, priority, assignee }) {
      const ticket = state.tickets.find((candidate) => candidate.id === id);
      if (!ticket) return refuse(`no ticket ${id}`);
      if (assignee !== undefined && !state.users.some((user) => user.id === assignee))
        return refuse(`unknown user id "${assignee}": assignees are user ids (find_user gives them)`);
      if (status !== undefined) ticket.status = status;
      if (priority !== undefined) ticket.priority = priority;
      if (assignee !== undefined) ticket.assignee = assignee;
      return text(ticket);
    },
  },
  {
    name: "environment_reset",
    description: "tfgrpo control: start the attempt from the task's initial state.",
    inputSchema: { type: "object", properties: { task: { type: "object" } }, required: ["task"] },
    run(state, { task }) {
      const initial = task?.meta?.initialState ?? seedState();
      state.users = structuredClone(initial.users);
      state.tickets = structuredClone(initial.tickets);
      return text("reset");
    },
  },
  {
    name: "environment_state",
    description: "tfgrpo control: the current state as JSON.",
    inputSchema: { type: "object", properties: {} },
    run: (state) => text(state),
  },
];

/** Answers one JSON-RPC message against one state; null for notifications. */
function handle(state, message) {
  const { id, method, params } = message;
  if (id === undefined || id === null) return null;
  const result = (value) => ({ jsonrpc: "2.0", id, result: value });
  switch (method) {
    case "initialize":
      return result({
        protocolVersion: params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "tickets", version: "1.0.0" },
      });
    case "ping":
      return result({});
    case "tools/list":
      return result({ tools: tools.map(({ run: _run, ...tool }) => tool) });
    case "tools/call": {
      const tool = tools.find((candidate) => candidate.name === params?.name);
      if (!tool)
        return { jsonrpc: "2.0", id, error: { code: -32602, message: `unknown tool ${params?.name}` } };
      return result(tool.run(state, params.arguments ?? {}));
    }
    default:
      return { jsonrpc: "2.0", id, error: { code: -32601, message: `method not found: ${method}` } };
  }
}

const httpPort = process.argv.indexOf("--http");
if (httpPort === -1) {
  // stdio: one process, one state (tfgrpo spawns one per attempt with `environment: process`).
  const state = seedState();
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    const reply = handle(state, JSON.parse(line));
    if (reply) process.stdout.write(`${JSON.stringify(reply)}\n`);
  });
} else {
  // Streamable HTTP: one state per session (tfgrpo opens one session per attempt with `environment: session`).
  const sessions = new Map();
  const server = createServer((request, response) => {
    const sessionId = request.headers["mcp-session-id"];
    if (request.method === "DELETE") {
      sessions.delete(sessionId);
      response.writeHead(200).end();
      return;
    }
    if (request.method !== "POST") {
      response.writeHead(405, { allow: "POST, DELETE" }).end();
      return;
    }
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const message = JSON.parse(body);
      let id = sessionId;
      if (message.method === "initialize") {
        id = randomUUID();
        sessions.set(id, seedState());
      }
      const state = sessions.get(id);
      if (!state) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: message.id ?? null,
            error: { code: -32001, message: "unknown session" },
          }),
        );
        return;
      }
      const reply = handle(state, message);
      if (!reply) {
        response.writeHead(202).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json", "mcp-session-id": id });
      response.end(JSON.stringify(reply));
    });
  });
  server.listen(Number(process.argv[httpPort + 1] ?? 0), "127.0.0.1", () => {
    // The port on stdout, so a caller that asked for port 0 knows where to connect.
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/mcp` })}\n`);
  });
}
