import type { z } from "zod";

/**
 * How a subject is served: `request` answers short calls (request/reply, any one handler of the queue group
 * answers); `job` works long jobs from the durable queue (heartbeats, redelivery, results by replyTo).
 */
export type ServeMode = "request" | "job";

/**
 * A typed Bus endpoint: its NATS subject (`tfgrpo.<role>.<operation>`), the zod schemas of what goes in and out,
 * and how a role serves it. Both ends validate, so a malformed payload fails at the boundary with the field named.
 */
export interface Subject<I, O> {
  readonly name: string;
  readonly input: z.ZodType<I>;
  readonly output: z.ZodType<O>;
  /** The ways a role serves this subject (`defineRole` subscribes each); callers may use any of them. */
  readonly modes: readonly ServeMode[];
}

export function defineSubject<I, O>(
  name: string,
  input: z.ZodType<I>,
  output: z.ZodType<O>,
  options: { modes?: readonly ServeMode[] } = {},
): Subject<I, O> {
  if (!/^tfgrpo\.[a-z]+\.[a-z][a-z0-9-]*$/.test(name)) {
    throw new Error(`subject names look like tfgrpo.<role>.<operation>, got "${name}"`);
  }
  const modes = options.modes ?? ["request"];
  if (modes.length === 0) throw new Error(`subject "${name}" must be served in at least one mode`);
  return { name, input, output, modes: [...new Set(modes)] };
}

/** What a subject takes, as a type: `SubjectInput<typeof criticReward>`. */
export type SubjectInput<S> = S extends Subject<infer I, unknown> ? I : never;
/** What a subject answers, as a type. */
export type SubjectOutput<S> = S extends Subject<unknown, infer O> ? O : never;
