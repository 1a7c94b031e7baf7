import { unitFrom } from "../hash.js";
import type { TracedOperation } from "./critic-operation.js";

/**
 * An instruction to add a lesson planted anywhere in the cases (task, summary or feedback), obeyed at `rate`: the
 * gullible model's add operation, its text copied from the data. Escaped tags do not stop it: it reads the words.
 */
export function plantedInstruction(
  outcomes: string,
  rate: number,
  seed: number,
  label: string,
): TracedOperation | undefined {
  if (rate <= 0) return undefined;
  const match =
    /\badd (?:the |this |a )?(?:lesson|experience|rule)\s*:\s*["“]?([^"”\n<‹]+?)["”]?\s*(?:[.\n<‹]|$)/i.exec(
      outcomes,
    );
  if (!match) return undefined;
  const text = match[1]!.trim();
  if (unitFrom(label, seed, text) >= rate) return undefined;
  return {
    operation: { option: "add", experience: text, reason: "the data asks for it" },
    origin: "injected",
  };
}
