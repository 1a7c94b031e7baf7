import { type Message, messageSchema, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { type AgentRunRecord, storedToolCall } from "./agent-run-record.js";

/** What tfgrpo passes a plain-function agent for one attempt. */
export interface AgentFunctionInput {
  task: { id: string; question: string; domain: string };
  /** The experience block for this attempt: append it to your system prompt (empty: nothing to show). */
  experiences: string;
  /** Ids the block shows (`[G3]`-style, what a model may cite). */
  shownIds: string[];
  /** This attempt's seed: attempts of a group should differ by it (pass it to your model). */
  seed: number;
  temperature: number;
  /** Aborted when the attempt is out of time. */
  signal: AbortSignal;
}

/** `async function agent(input: AgentFunctionInput)`: returns its answer text or a record of what it did. */
export type AgentFunction = (input: AgentFunctionInput) => Promise<unknown> | unknown;

const outputSchema = z.union([
  z.string(),
  z.object({
    /** The final text of the agent (its answer, boxed or not). */
    text: z.string().optional(),
    /** The answer apart from the text, when the agent has one. */
    answer: z.string().nullable().optional(),
    messages: z.array(messageSchema).optional(),
    toolCalls: z
      .array(
        z.object({ id: z.string().optional(), name: z.string(), input: z.unknown(), output: z.string() }),
      )
      .optional(),
  }),
]);

/** One attempt of a plain-function agent; its return value checked (a bad one names the field and the file). */
export async function runFunctionAgent(
  agent: AgentFunction,
  input: AgentFunctionInput,
  where: { file: string; storedChars: number },
): Promise<AgentRunRecord> {
  const value = await agent(input);
  const parsed = outputSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TfgrpoError(
      "invalid_input",
      `${where.file}: the agent function returned ${issue?.path.join(".") || "a value"} that is not a string or { text, answer, messages, toolCalls }: ${issue?.message ?? "bad value"}`,
      { details: { file: where.file } },
    );
  }
  const output = typeof parsed.data === "string" ? { text: parsed.data } : parsed.data;
  const text = output.text ?? output.answer ?? "";
  const messages: Message[] = output.messages ?? [
    { role: "user", content: input.task.question },
    { role: "assistant", content: text },
  ];
  return {
    messages,
    toolCalls: (output.toolCalls ?? []).map((call, index) =>
      storedToolCall(
        { id: call.id ?? `call_${index}`, name: call.name, input: call.input },
        call.output,
        where.storedChars,
      ),
    ),
    text,
    ...(output.answer === undefined ? {} : { answer: output.answer }),
  };
}
