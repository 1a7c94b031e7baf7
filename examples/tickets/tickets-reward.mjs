// The reward of the tickets example (docs/tools.md): 1 when the attempt's final ticket state has every field the
// task expects (task.meta.expected: { "T-3": { "status": "closed" } }) and changed nothing else, 0 otherwise.
// It reads trajectory.environment: `finalState` (environment_state at the end) and `diff` (changes since reset).
export default function ticketsReward(task, _finalAnswer, trajectory) {
  const environment = trajectory?.environment;
  if (!environment?.finalState) return { reward: 0, reason: "no final environment state" };
  const expected = task.meta?.expected ?? {};
  const tickets = new Map(environment.finalState.tickets.map((ticket) => [ticket.id, ticket]));
  for (const [id, fields] of Object.entries(expected)) {
    for (const [field, value] of Object.entries(fields)) {
      if (tickets.get(id)?.[field] !== value)
        return {
          reward: 0,
          reason: `${id}.${field} is ${JSON.stringify(tickets.get(id)?.[field])}, expected ${JSON.stringify(value)}`,
        };
    }
  }
  const allowed = new Set(
    Object.entries(expected).flatMap(([id, fields]) => Object.keys(fields).map((field) => `${id}.${field}`)),
  );
  const index = (path) => environment.finalState.tickets[Number(path.split("/")[2])]?.id;
  const stray = environment.diff.find(
    (change) => !allowed.has(`${index(change.path)}.${change.path.split("/")[3]}`),
  );
  if (stray) return { reward: 0, reason: `changed ${stray.path}, which the task did not ask for` };
  return { reward: 1, reason: "the ticket system is in the expected state" };
}
