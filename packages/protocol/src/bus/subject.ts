import type { z } from "zod";

/**
 * A typed Bus endpoint: its NATS subject (`tfgrpo.<role>.<operation>`) and the zod schemas of what goes in and out.
 * Both ends validate, so a malformed payload fails at the boundary with the field named.
 */
export interface Subject<I, O> {
  readonly name: string;
  readonly input: z.ZodType<I>;
  readonly output: z.ZodType<O>;
}

export function defineSubject<I, O>(name: string, input: z.ZodType<I>, output: z.ZodType<O>): Subject<I, O> {
  if (!/^tfgrpo\.[a-z]+\.[a-z][a-z0-9-]*$/.test(name)) {
    throw new Error(`subject names look like tfgrpo.<role>.<operation>, got "${name}"`);
  }
  return { name, input, output };
}
