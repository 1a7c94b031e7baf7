/**
 * The tasks of the tickets example world (examples/tickets/tasks.jsonl and tests): what a question asks of the
 * ticket system, as the world knows it (the policy's knowledge, like a math family's answer).
 */
export type TicketsGoal =
  | { kind: "update"; id: string; fields: { status?: string; priority?: string } }
  | { kind: "assign"; id: string; to: string }
  | { kind: "reassign-all"; from: string; to: string };

export interface TicketsInstance {
  domain: "tickets";
  question: string;
  goal: TicketsGoal;
}

export function recognizeTicketsQuestion(question: string): TicketsInstance | null {
  const q = question.trim();
  const make = (goal: TicketsGoal): TicketsInstance => ({ domain: "tickets", question: q, goal });
  let m = /^Close ticket (T-\d+)\.$/.exec(q);
  if (m) return make({ kind: "update", id: m[1]!, fields: { status: "closed" } });
  m = /^Reopen ticket (T-\d+)\.$/.exec(q);
  if (m) return make({ kind: "update", id: m[1]!, fields: { status: "open" } });
  m = /^Set the priority of ticket (T-\d+) to (low|medium|high)\.$/.exec(q);
  if (m) return make({ kind: "update", id: m[1]!, fields: { priority: m[2]! } });
  m = /^Reassign ticket (T-\d+) to (.+)\.$/.exec(q);
  if (m) return make({ kind: "assign", id: m[1]!, to: m[2]! });
  m = /^Reassign every open ticket of (.+) to (.+)\.$/.exec(q);
  if (m) return make({ kind: "reassign-all", from: m[1]!, to: m[2]! });
  return null;
}
