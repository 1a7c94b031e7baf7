import { safeParseJson } from "@tfgrpo/protocol";
import type { ActorTurn, SimToolCall, ToolExchange } from "../actor-turn.js";
import type { TicketsInstance } from "../suites/tickets.js";

type MakeCall = (name: string, args: Record<string, unknown>, label: string) => SimToolCall;

/** The id of the first user a find_user result lists, or null ("no user matches"). */
function userIdFrom(output: string | null): string | null {
  const parsed = safeParseJson<unknown>(output ?? "");
  if (!parsed.success || !Array.isArray(parsed.value)) return null;
  const first = parsed.value[0] as { id?: unknown } | undefined;
  return typeof first?.id === "string" ? first.id : null;
}

function ticketIdsFrom(output: string | null): string[] {
  const parsed = safeParseJson<unknown>(output ?? "");
  if (!parsed.success || !Array.isArray(parsed.value)) return [];
  return parsed.value.flatMap((ticket) =>
    typeof (ticket as { id?: unknown }).id === "string" ? [(ticket as { id: string }).id] : [],
  );
}

const failed = (exchange: ToolExchange | undefined) => exchange?.output?.startsWith("Error") === true;

/**
 * The simulated policy in the tickets example world: it reads the task and acts through the real MCP tools, one
 * step per turn, from what the tools answered so far. Its pitfall (`assigneeByName`): unless a lesson tells it to
 * look users up, it passes the person's name as the assignee; the system refuses, and it gives up.
 */
export function respondTickets(
  instance: TicketsInstance,
  exchanges: readonly ToolExchange[],
  byName: boolean,
  call: MakeCall,
): ActorTurn {
  const { goal } = instance;
  const done = (text: string): ActorTurn => ({ content: `${text}\n\\boxed{done}`, toolCalls: [] });
  const updates = exchanges.filter((e) => e.name === "update_ticket");
  const lookups = exchanges.filter((e) => e.name === "find_user");
  if (updates.length > 0 && updates.every((e) => !failed(e))) return done("The ticket system is updated.");
  if (updates.some(failed)) return done(`The system refused the change: ${updates.find(failed)!.output}`);

  if (goal.kind === "update") {
    return {
      content: `Updating ${goal.id}.`,
      toolCalls: [call("update_ticket", { id: goal.id, ...goal.fields }, "update")],
    };
  }
  if (goal.kind === "assign") {
    if (byName) {
      return {
        content: `Assigning ${goal.id} to ${goal.to}.`,
        toolCalls: [call("update_ticket", { id: goal.id, assignee: goal.to }, "assign")],
      };
    }
    if (lookups.length === 0)
      return {
        content: `Looking up ${goal.to}.`,
        toolCalls: [call("find_user", { name: goal.to }, "find-to")],
      };
    const to = userIdFrom(lookups[0]!.output);
    if (!to) return done(`There is no user named ${goal.to}.`);
    return {
      content: `Assigning ${goal.id} to ${to}.`,
      toolCalls: [call("update_ticket", { id: goal.id, assignee: to }, "assign")],
    };
  }
  // reassign-all
  const listed = exchanges.find((e) => e.name === "list_tickets");
  if (byName) {
    if (!listed) {
      return {
        content: `Listing the open tickets of ${goal.from}.`,
        toolCalls: [call("list_tickets", { assignee: goal.from, status: "open" }, "list")],
      };
    }
    const ids = ticketIdsFrom(listed.output);
    if (ids.length === 0) return done(`${goal.from} has no open tickets.`);
    return {
      content: `Reassigning ${ids.join(", ")}.`,
      toolCalls: ids.map((id) => call("update_ticket", { id, assignee: goal.to }, `assign-${id}`)),
    };
  }
  if (lookups.length === 0) {
    return {
      content: `Looking up ${goal.from} and ${goal.to}.`,
      toolCalls: [
        call("find_user", { name: goal.from }, "find-from"),
        call("find_user", { name: goal.to }, "find-to"),
      ],
    };
  }
  const from = userIdFrom(lookups[0]!.output);
  const to = userIdFrom(lookups[1]?.output ?? null);
  if (!from || !to) return done("One of these users does not exist.");
  if (!listed) {
    return {
      content: `Listing the open tickets of ${from}.`,
      toolCalls: [call("list_tickets", { assignee: from, status: "open" }, "list")],
    };
  }
  const ids = ticketIdsFrom(listed.output);
  if (ids.length === 0) return done(`${goal.from} has no open tickets.`);
  return {
    content: `Reassigning ${ids.join(", ")} to ${to}.`,
    toolCalls: ids.map((id) => call("update_ticket", { id, assignee: to }, `assign-${id}`)),
  };
}
