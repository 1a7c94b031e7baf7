import type { Pitfall } from "./pitfall.js";

/**
 * The one trap of the tickets example world (examples/tickets): assigning a ticket to a person's name where the
 * system wants a user id. A lesson helps when it says to look the user's id up (find_user) before assigning.
 */
export const assigneeByName: Pitfall = {
  id: "assignee-by-name",
  domain: "tickets",
  title: "assigning a ticket to a person's name instead of their user id",
  reading: {
    topic: ["assigne", "user id", "reassign"],
    context: ["ticket", "assign", "user", "person", "name"],
    helpful: ["look id", "find id", "find_user", "use id", "get id", "look user", "resolv id"],
    harmful: ["use name", "pass name", "skip look", "SKIPPING find_user"],
  },
};
