import { safeParseJson } from "@tfgrpo/protocol";

/**
 * The simulated critic's reading of a customer-service attempt over store tools (SIMULATED). It knows what any
 * reviewer of such transcripts knows: lookups that find nobody, refused writes and their messages, which tool
 * handles which order state, that a transfer hands the customer away, that a customer who asked for figures should
 * hear them. It compares the attempt's calls with the reference calls of the ground truth and names what differs,
 * one bracketed tag a problem, in its own words. It never sees the world's trap list or the policy's reader.
 */

export interface ReviewedCall {
  name: string;
  args: Record<string, unknown>;
  output: string;
}

export interface RetailReview {
  calls: ReviewedCall[];
  agentMessages: string[];
}

const lookupNames = new Set(["find_user_id_by_email", "find_user_id_by_name_zip"]);
const writeNames = new Set([
  "cancel_pending_order",
  "exchange_delivered_order_items",
  "modify_pending_order_address",
  "modify_pending_order_items",
  "modify_pending_order_payment",
  "modify_user_address",
  "return_delivered_order_items",
]);

/** Whether a stage-1 prompt is about a store-tools conversation: the ground truth lists reference calls. */
export function isRetailTrajectory(trajectory: string, groundTruth: string | null): boolean {
  const truth = safeParseJson<{ actions?: unknown }>(groundTruth ?? "");
  if (truth.success && Array.isArray(truth.value?.actions)) return true;
  return /^Tool call find_user_id_by_(email|name_zip):/m.test(trajectory);
}

/** Tool calls (with arguments and output) and the agent's own messages, from packages/critic's rendering. */
export function readRetailTrajectory(text: string): RetailReview {
  const calls: ReviewedCall[] = [];
  const agentMessages: string[] = [];
  const lines = text.split(/\r?\n/);
  let mode: "none" | "agent" | "output" = "none";
  let agentLines: string[] = [];
  const flushAgent = () => {
    const said = agentLines.join("\n").trim();
    if (said) agentMessages.push(said);
    agentLines = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const call = /^Tool call ([\w.-]+):\s*$/.exec(line);
    if (call) {
      if (mode === "agent") flushAgent();
      const args = /^Arguments:\s*(.*)$/.exec(lines[i + 1] ?? "")?.[1] ?? "{}";
      const parsed = safeParseJson<Record<string, unknown>>(args);
      calls.push({ name: call[1]!, args: parsed.success && parsed.value ? parsed.value : {}, output: "" });
      mode = "none";
      continue;
    }
    if (/^Output(?: \(stored truncated\))?:\s*$/.test(line) && calls.length > 0) {
      mode = "output";
      continue;
    }
    if (/^Step \d+ \(assistant\):\s*$/.test(line)) {
      if (mode === "agent") flushAgent();
      mode = "agent";
      continue;
    }
    if (/^(User:|Problem:|Environment changes|Final answer:|Stop reason:)/.test(line) || line.trim() === "") {
      if (mode === "agent") flushAgent();
      mode = "none";
      continue;
    }
    if (mode === "output") {
      const last = calls.at(-1)!;
      last.output = last.output ? `${last.output}\n${line}` : line;
    } else if (mode === "agent") agentLines.push(line);
  }
  if (mode === "agent") flushAgent();
  return { calls, agentMessages };
}

interface Reference {
  actions: { name: string; arguments: Record<string, unknown> }[];
  communicate: string[];
}

function referenceOf(groundTruth: string | null): Reference {
  const truth = safeParseJson<{ actions?: Reference["actions"]; communicate_info?: string[] }>(
    groundTruth ?? "",
  );
  const value = truth.success ? truth.value : undefined;
  return {
    actions: Array.isArray(value?.actions) ? value.actions : [],
    communicate: Array.isArray(value?.communicate_info) ? value.communicate_info : [],
  };
}

const refused = (call: ReviewedCall) => call.output.startsWith("Error");

/** What went wrong, as `[tag] sentence` findings, judged against the reference calls. */
export function diagnose(review: RetailReview, groundTruth: string | null): string[] {
  const reference = referenceOf(groundTruth);
  const findings: string[] = [];
  const { calls } = review;
  const firstLookup = calls.findIndex((c) => lookupNames.has(c.name));
  const profile = calls.findIndex((c) => c.name === "get_user_details");
  if (profile >= 0 && refused(calls[profile]!) && (firstLookup < 0 || firstLookup > profile)) {
    findings.push(
      "[identity] The profile was requested with a made-up account name before any email or name-and-zip lookup.",
    );
  }
  const failedLookup = calls.findIndex((c) => lookupNames.has(c.name) && refused(c));
  if (failedLookup >= 0 && !calls.slice(failedLookup + 1).some((c) => lookupNames.has(c.name))) {
    findings.push(
      "[lookup] After one lookup found nobody, the attempt stopped without trying the other lookup.",
    );
  }
  const states = /Non-(pending|delivered) order cannot be (cancelled|modified|exchanged|returned)/;
  for (const call of calls.filter((c) => writeNames.has(c.name) && states.test(c.output))) {
    const intended = reference.actions.find(
      (a) => writeNames.has(a.name) && a.arguments.order_id === call.args.order_id && a.name !== call.name,
    );
    if (intended) {
      findings.push(
        `[order-state] ${call.name} was refused for ${String(call.args.order_id)} (its state does not allow it); the reference uses ${intended.name}.`,
      );
    }
  }
  const swaps = calls.filter(
    (c) => c.name === "exchange_delivered_order_items" || c.name === "modify_pending_order_items",
  );
  const byOrder = new Map<string, number>();
  for (const call of swaps)
    byOrder.set(String(call.args.order_id), (byOrder.get(String(call.args.order_id)) ?? 0) + 1);
  if ([...byOrder.values()].some((count) => count >= 2)) {
    findings.push(
      "[one-list] The items of one order were sent in several exchange/modify calls; only the first went through.",
    );
  }
  if (calls.some((c) => c.output.startsWith("Error: Variant not found"))) {
    findings.push(
      "[variant-ids] The new items were given as product ids, which the tool does not accept as variants.",
    );
  }
  for (const call of calls.filter(
    (c) => writeNames.has(c.name) && typeof c.args.payment_method_id === "string",
  )) {
    const intended = reference.actions.find(
      (a) => a.name === call.name && a.arguments.order_id === call.args.order_id,
    );
    const wrong =
      call.output.startsWith("Error: Payment method should be the original") ||
      (intended !== undefined &&
        typeof intended.arguments.payment_method_id === "string" &&
        intended.arguments.payment_method_id !== call.args.payment_method_id);
    if (wrong) {
      findings.push(
        `[payment] The money for ${String(call.args.order_id)} was routed to ${String(call.args.payment_method_id)}, not to the method the customer's order calls for.`,
      );
      break;
    }
  }
  if (calls.some((c) => c.name === "cancel_pending_order" && c.output.startsWith("Error: Invalid reason"))) {
    findings.push(
      "[reason] The cancellation was refused: the reason given was free text, not one the tool accepts.",
    );
  }
  if (
    calls.some((c) => c.name === "transfer_to_human_agents") &&
    !reference.actions.some((a) => a.name === "transfer_to_human_agents")
  ) {
    findings.push(
      "[handoff] The customer was passed to a human although the store's tools could serve the request.",
    );
  }
  const said = review.agentMessages.map((m) => m.toLowerCase().replace(/,/g, ""));
  const missing = reference.communicate.filter((info) => !said.some((m) => m.includes(info.toLowerCase())));
  if (missing.length > 0) {
    findings.push(`[numbers] The customer never heard the values they asked for (${missing.join(", ")}).`);
  }
  return findings;
}

/** Stage 1 for a store-tools attempt: its calls, its outcome and its findings, in the critic's own format. */
export function writeRetailSummary(
  trajectory: string,
  evaluation: string,
  groundTruth: string | null,
): string {
  const review = readRetailTrajectory(trajectory);
  const findings = diagnose(review, groundTruth);
  const calls = review.calls.map(
    (c) => `${c.name} ${refused(c) ? `refused (${c.output.slice(7, 80)})` : "ok"}`,
  );
  return [
    "Retail attempt review.",
    `Calls: ${calls.length > 0 ? calls.join("; ") : "none"}.`,
    `Messages to the customer: ${review.agentMessages.length}.`,
    `Outcome: ${evaluation.replace(/\s+/g, " ").slice(0, 200)}`,
    "Findings:",
    ...(findings.length > 0 ? findings.map((f) => `- ${f}`) : ["- none visible"]),
  ].join("\n");
}
