import type { Finding } from "./finding.js";

/** A critic operation in the contract's shape (stage 2). */
export interface CriticOperation {
  option: "add" | "modify" | "delete";
  experience_id?: string;
  experience?: string;
  /** Where the lesson does not apply (written only when the prompt asks for it). */
  when_not?: string;
  reason: string;
}

/** Where an operation came from: the evidence, or one of the noise kinds (for tests and reports, never sent). */
export type OperationOrigin =
  | "evidence"
  | "fallback"
  | "vague"
  | "duplicate"
  | "contradictory"
  | "wrong-attribution"
  | "wrong-id"
  | "answer-leak"
  /** An instruction planted in the data, obeyed (`noise.critic.obeysInjection`). */
  | "injected";

export interface TracedOperation {
  operation: CriticOperation;
  origin: OperationOrigin;
  finding?: Finding;
}
