import type { StructuredToolInterface } from "@langchain/core/tools";
import { type AgentEnvironment, type Message, messageSchema, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { type AgentRunRecord, storedToolCall } from "./agent-run-record.js";

/**
 * What tfgrpo passes a module's function for one attempt (and, in a conversation, for each turn until it returns
 * an agent): the task, the attempt's experiences and seed, the conversation so far, and the attempt's environment.
 */
export interface AgentFunctionInput {
  task: { id: string; question: string; domain: string };
  /**
   * The conversation so far, oldest first: the task as one user message, or in a conversation (a task with
   * `meta.userScenario`) the greeting, then the user's and the agent's turns; the last message is the user's.
   */
  messages: Message[];
  /**
   * The attempt's tools from its environment (the domain's MCP servers and tool modules), as LangChain tools bound
   * to this attempt's state, ready for `createAgent({ tools })`. Empty when the domain has none.
   */
  tools: StructuredToolInterface[];
  /** The attempt's environment: its MCP endpoint and tools in any framework's terms; absent when it has none. */
  environment: AgentEnvironment | undefined;
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
  z
    .object({
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
    })
    // An object with none of them is no answer: most likely an agent of a framework tfgrpo does not run.
    .refine(
      (output) => output.text !== undefined || output.answer !== undefined || output.messages !== undefined,
      {
        message: "an object with none of text, answer, messages",
      },
    ),
]);

/**
 * What a plain function returned for one turn, checked (a bad value names the field and the file): its reply and
 * what it did. `messages`, when it returns them, is the whole conversation (starting with the messages it was given).
 */
export function functionAgentRecord(
  value: unknown,
  input: Pick<AgentFunctionInput, "messages">,
  where: { file: string; storedChars: number },
): AgentRunRecord {
  const parsed = outputSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TfgrpoError(
      "invalid_input",
      `${where.file}: the agent function returned ${issue?.path.join(".") || "a value"} that is not a string, { text, answer, messages, toolCalls } or an agent (createAgent, AI SDK): ${issue?.message ?? "bad value"}`,
      { details: { file: where.file } },
    );
  }
  const output = typeof parsed.data === "string" ? { text: parsed.data } : parsed.data;
  const text = output.text ?? output.answer ?? "";
  const messages: Message[] = output.messages ?? [...input.messages, { role: "assistant", content: text }];
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
