import type {
  GetExperiencesReply,
  GetExperiencesRequest,
  GetLibraryRequest,
  LibrarySnapshot,
  LibraryVersion,
  ReportOutcomeReply,
  ReportOutcomeRequest,
} from "@tfgrpo/protocol";

export {
  type GetExperiencesReply,
  type GetExperiencesRequest,
  type GetLibraryRequest,
  getExperiencesReplySchema,
  getExperiencesRequestSchema,
  getLibraryRequestSchema,
  type ReportOutcomeReply,
  type ReportOutcomeRequest,
  reportOutcomeReplySchema,
  reportOutcomeRequestSchema,
  type ServedExperience,
  servedExperienceSchema,
} from "@tfgrpo/protocol";

/*
 * The library as a service: one interface, served three ways (in process for LangGraph.js, over the Bus/NATS as the
 * `library` role, as an MCP server). The request and reply schemas are the wire contract of all three; they live in
 * @tfgrpo/protocol (the Bus subjects need them) and are re-exported here.
 */

/** What the service announces, for online learning (part of `serve`'s wiring, not of the wire contract). */
export type LibraryServiceEvent =
  | { type: "served"; reply: GetExperiencesReply; task: string }
  | { type: "outcome"; reply: ReportOutcomeReply };

/**
 * Who is calling, as the server that received the call established it (a client token's name); never read from the
 * request itself. Stored with the selection and the outcome, so an operator can count and exclude a client.
 */
export interface LibraryCallContext {
  client?: string;
}

/**
 * The library service. Every method validates its input with the schemas above and fails with a `TfgrpoError`
 * naming the field (`invalid_input`), the missing thing (`not_found`) or the repeated report (`conflict`).
 */
export interface LibraryService {
  /**
   * Selects the experiences for one task: the actor's own selection (hybrid similarity + UCB utility, one entry per
   * conflict group, within the token budget) plus a forced exploration slot (at least one candidate entry when the
   * version has candidates), from the pinned version or the head. With exposure on (the default), each uncertain
   * entry of it (candidate, probation, a rotating share of active) is then shown or withheld by a fair coin; the
   * selection records both arms and the task's stratum before it is returned.
   */
  getExperiences(request: GetExperiencesRequest, context?: LibraryCallContext): Promise<GetExperiencesReply>;
  /**
   * Stores the outcome of a selection and credits the entries it showed, exactly once per `selectionId`: a second
   * report is refused with `conflict` and changes nothing. The varied entries' contrasts are settled in the same step
   * (within the task's stratum, once both arms have reports; never against a global mean).
   */
  reportOutcome(request: ReportOutcomeRequest, context?: LibraryCallContext): Promise<ReportOutcomeReply>;
  /** A whole library version (archived entries included) with its version record; `not_found` when absent. */
  getLibrary(request: GetLibraryRequest): Promise<{ snapshot: LibrarySnapshot; info: LibraryVersion }>;
  /** The versions of a domain, oldest first (empty for an unknown domain). */
  listVersions(domain: string): Promise<LibraryVersion[]>;
}
