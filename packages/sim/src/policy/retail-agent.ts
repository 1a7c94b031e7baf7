import type { FallProbabilities } from "../behaviour.js";
import { type ChatRequest, messageText } from "../chat-request.js";
import { fallProbability, type PitfallReading } from "../experience-reading.js";
import { hexFrom, unitFrom } from "../hash.js";
import type { Pitfall } from "../pitfalls/pitfall.js";
import {
  authenticateFirst,
  cancelReason,
  checkOrderStatus,
  collectAllItems,
  exactFigures,
  itemVersusProductId,
  otherLookup,
  refundDestination,
  transferScope,
} from "../pitfalls/retail-pitfalls.js";
import { paymentMethodsForOrder, type RetailGoldCall, type RetailInstance } from "../suites/retail-tasks.js";
import type { ExperienceLine } from "../text/experience-lines.js";
import { retailFacts, situationHolds } from "./retail-situation.js";

/**
 * The simulated retail agent (SIMULATED): a capable customer-service agent that knows what each customer of the world
 * wants (the task's intended calls, as the math world knows answers) and works through it over the real tools, one
 * step per turn: authenticate, look up, list the details and ask for a yes before each write, make the write, tell
 * the facts asked for, close. Each trap of `retail-pitfalls.ts` that applies to the task may change one step (a
 * guessed user id, the wrong kind of write, items split over calls, product ids as items, another payment method,
 * free-text cancel reason, giving up after a failed lookup, an early transfer, figures left out), unless a lesson in
 * the prompt addresses it, read by meaning.
 */

// Lower than the math world's: a capable agent gets most steps of a conversation right without help.
export const retailFall: FallProbabilities = {
  none: 0.4,
  helps: 0.05,
  neutral: 0.33,
  hurts: 0.9,
  conflict: 0.35,
};

const writeTools = new Set([
  "cancel_pending_order",
  "exchange_delivered_order_items",
  "modify_pending_order_address",
  "modify_pending_order_items",
  "modify_pending_order_payment",
  "modify_user_address",
  "return_delivered_order_items",
]);
const lookupTools = new Set(["find_user_id_by_email", "find_user_id_by_name_zip"]);
const swapTools = new Set(["exchange_delivered_order_items", "modify_pending_order_items"]);

/** The kinds of write a status mix-up turns each into (a delivered order "modified", a pending one "returned"...). */
const wrongKind: Record<string, (args: Record<string, unknown>) => RetailGoldCall> = {
  exchange_delivered_order_items: (args) => ({ name: "modify_pending_order_items", arguments: args }),
  modify_pending_order_items: (args) => ({ name: "exchange_delivered_order_items", arguments: args }),
  return_delivered_order_items: (args) => ({
    name: "cancel_pending_order",
    arguments: { order_id: args.order_id, reason: "no longer needed" },
  }),
};

export const transferMessage = "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.";
export const askIdentity =
  "I can help with that. First, could you give me your email address, or your first and last name and zip code, " +
  "so I can locate your account?";

type Step =
  | { kind: "say"; text: string; confirms?: RetailGoldCall }
  | { kind: "call"; call: RetailGoldCall; giveUpOnError?: boolean };

/** A customer's answer to "Shall I proceed (yes/no)?" that withholds the yes. */
const declines = (reply: string) => /^\s*(?:no\b|nope\b|please don't|don't\b|wait\b)/i.test(reply);

export interface RetailTurn {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
}

interface Exchange {
  name: string;
  arguments: string;
  output: string | null;
}

function exchangesOf(request: ChatRequest): Exchange[] {
  const byId = new Map<string, Exchange>();
  const out: Exchange[] = [];
  for (const message of request.messages) {
    if (message.role === "assistant" && message.tool_calls) {
      for (const call of message.tool_calls) {
        const exchange = { name: call.function.name, arguments: call.function.arguments, output: null };
        byId.set(call.id, exchange);
        out.push(exchange);
      }
    } else if (message.role === "tool" && message.tool_call_id) {
      const exchange = byId.get(message.tool_call_id);
      if (exchange) exchange.output = messageText(message);
    }
  }
  return out;
}

const parse = (text: string | null): unknown => {
  try {
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** From the tool results so far: each order's item -> product ids. */
function seen(exchanges: readonly Exchange[]) {
  const products = new Map<string, string>();
  for (const exchange of exchanges) {
    const value = parse(exchange.output) as Record<string, unknown> | undefined;
    if (!value || typeof value !== "object") continue;
    if (exchange.name === "get_order_details" && Array.isArray(value.items)) {
      for (const item of value.items as { item_id?: string; product_id?: string }[]) {
        if (item.item_id && item.product_id) products.set(item.item_id, item.product_id);
      }
    }
  }
  return { products };
}

/** A write as the agent puts it to the customer for a yes or no ("cancel order #W1 (reason: ...)"). */
export function describeRetailWrite(call: RetailGoldCall): string {
  const a = call.arguments;
  const items = (key: string) => (Array.isArray(a[key]) ? (a[key] as string[]).join(", ") : "");
  switch (call.name) {
    case "cancel_pending_order":
      return `cancel order ${a.order_id} (reason: ${a.reason})`;
    case "exchange_delivered_order_items":
      return `exchange items ${items("item_ids")} of order ${a.order_id} for ${items("new_item_ids")}, the price difference settled with ${a.payment_method_id}`;
    case "modify_pending_order_items":
      return `change items ${items("item_ids")} of order ${a.order_id} to ${items("new_item_ids")}, the price difference settled with ${a.payment_method_id}`;
    case "return_delivered_order_items":
      return `return items ${items("item_ids")} of order ${a.order_id}, refunded to ${a.payment_method_id}`;
    case "modify_pending_order_address":
      return `ship order ${a.order_id} to ${a.address1}, ${a.address2 ? `${a.address2}, ` : ""}${a.city}, ${a.state} ${a.zip}, ${a.country}`;
    case "modify_user_address":
      return `set your default address to ${a.address1}, ${a.address2 ? `${a.address2}, ` : ""}${a.city}, ${a.state} ${a.zip}, ${a.country}`;
    case "modify_pending_order_payment":
      return `pay order ${a.order_id} with ${a.payment_method_id} instead`;
    default:
      return `${call.name} ${JSON.stringify(a)}`;
  }
}

export interface RetailAgentContext {
  seed: number;
  requestSeed: string;
  lines: readonly ExperienceLine[];
  reading: (pitfall: Pitfall, lines: readonly ExperienceLine[]) => PitfallReading;
}

/** One turn of the retail agent for a conversation about `instance`. */
export function respondRetail(
  instance: RetailInstance,
  request: ChatRequest,
  ctx: RetailAgentContext,
): RetailTurn {
  const actions = instance.actions;
  const writes = actions.filter((a) => writeTools.has(a.name));
  const exchanges = exchangesOf(request);
  const known = seen(exchanges);
  const cited = new Set<string>();
  // A lesson applies where its situation holds: one about cancellations does nothing in an exchange.
  const facts = retailFacts(instance);
  const lines = ctx.lines.filter((line) => situationHolds(line.text, facts));

  const falls = (pitfall: Pitfall): boolean => {
    const read = ctx.reading(pitfall, lines);
    const fallen =
      unitFrom("retail-fall", ctx.seed, ctx.requestSeed, instance.taskId, pitfall.id) <
      fallProbability(retailFall, read);
    for (const id of fallen ? read.hurting.slice(0, 1) : read.helping.slice(0, 2)) cited.add(id);
    return fallen;
  };

  const firstLookup = actions.findIndex((a) => lookupTools.has(a.name));
  const refusedLookup =
    firstLookup >= 0 && actions.slice(firstLookup + 1).some((a) => lookupTools.has(a.name))
      ? firstLookup
      : -1;
  const stakes = writes.length > 0 || instance.communicate.length > 0;
  const fallenAuth = firstLookup >= 0 && stakes && falls(authenticateFirst);
  const fallenLookup = refusedLookup >= 0 && stakes && falls(otherLookup);
  const fallenTransfer =
    writes.length >= 2 && !actions.some((a) => a.name === "transfer_to_human_agents")
      ? falls(transferScope)
      : false;
  const statusWrite = writes.find((a) => a.name in wrongKind);
  const fallenStatus = statusWrite !== undefined && falls(checkOrderStatus);
  const swap = writes.find((a) => swapTools.has(a.name));
  const fallenProduct = swap !== undefined && falls(itemVersusProductId);
  const multi = writes.find((a) => swapTools.has(a.name) && (a.arguments.item_ids as unknown[]).length >= 2);
  const fallenSplit = multi !== undefined && falls(collectAllItems);
  const paid = writes.find(
    (a) => typeof a.arguments.payment_method_id === "string" && a.name !== "modify_pending_order_payment",
  );
  const otherMethod = paid
    ? paymentMethodsForOrder(String(paid.arguments.order_id)).find(
        (id) => id !== paid.arguments.payment_method_id,
      )
    : undefined;
  // Whether it would fall is drawn whatever the conversation has shown, so the draw never depends on timing.
  const fallenRefund = paid !== undefined && otherMethod !== undefined && falls(refundDestination);
  const cancel = writes.find((a) => a.name === "cancel_pending_order");
  const fallenReason = cancel !== undefined && falls(cancelReason);
  const fallenFigures = instance.communicate.length > 0 && falls(exactFigures);

  const plan: Step[] = [];
  if (firstLookup >= 0) plan.push({ kind: "say", text: askIdentity });
  // The steps after the greeting; a trap that ends the conversation early ends the plan there.
  const build = (): void => {
    if (fallenAuth) {
      const lookup = actions[firstLookup]!.arguments;
      const guess = `${String(lookup.first_name ?? lookup.email ?? "customer").toLowerCase()}_${String(lookup.last_name ?? "").toLowerCase()}`;
      plan.push({
        kind: "call",
        call: { name: "get_user_details", arguments: { user_id: guess } },
        giveUpOnError: true,
      });
      return;
    }
    let wroteOnce = false;
    for (const [index, action] of actions.entries()) {
      if (!writeTools.has(action.name)) {
        if (action.name === "transfer_to_human_agents") {
          plan.push({ kind: "call", call: action }, { kind: "say", text: transferMessage });
          return;
        }
        plan.push({ kind: "call", call: action, giveUpOnError: fallenLookup && index === refusedLookup });
        continue;
      }
      if (fallenTransfer && !wroteOnce) {
        plan.push(
          {
            kind: "call",
            call: {
              name: "transfer_to_human_agents",
              arguments: { summary: `The customer asks: ${instance.reason.slice(0, 200)}` },
            },
          },
          { kind: "say", text: transferMessage },
        );
        return;
      }
      let calls: RetailGoldCall[] = [{ name: action.name, arguments: { ...action.arguments } }];
      let giveUp = false;
      if (action === statusWrite && fallenStatus) {
        calls = [wrongKind[action.name]!(action.arguments)];
        giveUp = true;
      } else if (action === swap && fallenProduct) {
        const products = (action.arguments.item_ids as string[]).map((id) => known.products.get(id));
        if (products.every((p) => p !== undefined)) {
          calls = [{ name: action.name, arguments: { ...action.arguments, new_item_ids: products } }];
          giveUp = true;
        }
      } else if (action === multi && fallenSplit) {
        const ids = action.arguments.item_ids as string[];
        const next = action.arguments.new_item_ids as string[];
        calls = [
          {
            name: action.name,
            arguments: { ...action.arguments, item_ids: ids.slice(0, 1), new_item_ids: next.slice(0, 1) },
          },
          {
            name: action.name,
            arguments: { ...action.arguments, item_ids: ids.slice(1), new_item_ids: next.slice(1) },
          },
        ];
        giveUp = true;
      } else if (action === paid && fallenRefund && otherMethod !== undefined) {
        calls = [{ name: action.name, arguments: { ...action.arguments, payment_method_id: otherMethod } }];
        giveUp = true;
      } else if (action === cancel && fallenReason) {
        calls = [
          { name: action.name, arguments: { ...action.arguments, reason: "I don't need it anymore" } },
        ];
        giveUp = true;
      }
      for (const call of calls) {
        plan.push(
          {
            kind: "say",
            text: `To confirm: I will ${describeRetailWrite(call)}. Shall I proceed (yes/no)?`,
            confirms: call,
          },
          { kind: "call", call, giveUpOnError: giveUp },
        );
      }
      wroteOnce = true;
    }
    if (instance.communicate.length > 0) {
      plan.push({
        kind: "say",
        text: fallenFigures
          ? "Everything you asked about is taken care of; the figures are in your account."
          : `Here is what you asked about: ${instance.communicate.join("; ")}.`,
      });
    }
    plan.push({ kind: "say", text: "Is there anything else I can help you with?" });
  };
  build();

  // A write the customer said no to is not made: its call becomes an acknowledgement, so the plan keeps one step per
  // agent message and the conversation goes on with the next request.
  const agentMessages = request.messages.flatMap((message, index) =>
    message.role === "assistant" ? [index] : [],
  );
  for (const [turn, index] of agentMessages.slice(1).entries()) {
    const step = plan[turn];
    const reply = request.messages[index + 1];
    if (step?.kind === "say" && step.confirms && reply?.role === "user" && declines(messageText(reply))) {
      plan[turn + 1] = { kind: "say", text: `Understood: I will not ${describeRetailWrite(step.confirms)}.` };
    }
  }

  // Where the conversation is: one step per agent message after the greeting.
  const agentTurns = agentMessages.length - 1;
  const last = request.messages.at(-1);
  const citedLine = () =>
    cited.size > 0 ? `\n(Experiences applied: ${[...cited].map((id) => `[${id}]`).join(", ")}.)` : "";
  if (last?.role === "tool" && messageText(last).startsWith("Error")) {
    const step = plan[agentTurns - 1];
    if (step?.kind === "call" && step.giveUpOnError) {
      return {
        content: `I'm sorry, I could not complete that: ${messageText(last).slice(0, 160)} I cannot help further with this request.${citedLine()}`,
        toolCalls: [],
      };
    }
  }
  const step = plan[Math.max(0, agentTurns)];
  if (!step) return { content: `Thank you for contacting us. Goodbye!${citedLine()}`, toolCalls: [] };
  if (step.kind === "say") {
    const closing = step.text.startsWith("Is there anything else");
    return { content: closing ? `${step.text}${citedLine()}` : step.text, toolCalls: [] };
  }
  return {
    content: null,
    toolCalls: [
      {
        id: `call_sim_${hexFrom(20, ctx.seed, ctx.requestSeed, instance.taskId, agentTurns, step.call.name)}`,
        name: step.call.name,
        arguments: JSON.stringify(step.call.arguments),
      },
    ],
  };
}
