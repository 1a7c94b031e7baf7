import { z } from "zod";

const contentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

const requestMessageSchema = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
  content: z.union([z.string(), z.array(contentPartSchema), z.null()]).optional(),
  tool_calls: z
    .array(
      z.looseObject({
        id: z.string(),
        type: z.string().optional(),
        function: z.looseObject({ name: z.string(), arguments: z.string() }),
      }),
    )
    .optional()
    .nullable(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});

const toolSchema = z.looseObject({
  type: z.string(),
  function: z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.unknown().optional(),
  }),
});

const responseFormatSchema = z.union([
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    json_schema: z.looseObject({
      name: z.string().optional(),
      schema: z.unknown().optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);

/** The part of an OpenAI chat-completions request the sim reads; unknown fields pass through untouched. */
export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(requestMessageSchema).min(1),
  tools: z.array(toolSchema).optional().nullable(),
  tool_choice: z.unknown().optional(),
  response_format: responseFormatSchema.optional().nullable(),
  seed: z.number().int().optional().nullable(),
  temperature: z.number().optional().nullable(),
  max_tokens: z.number().int().positive().optional().nullable(),
  max_completion_tokens: z.number().int().positive().optional().nullable(),
  stream: z.boolean().optional().nullable(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional().nullable(),
  user: z.string().optional(),
  prompt_cache_key: z.string().optional(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatRequestMessage = ChatRequest["messages"][number];
export type ResponseFormat = NonNullable<ChatRequest["response_format"]>;

export function messageText(message: ChatRequestMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  if (!content) return "";
  return content.map((part) => part.text ?? "").join("");
}

export function lastUserText(request: ChatRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role === "user") return messageText(message);
  }
  return "";
}

export function firstUserText(request: ChatRequest): string {
  const message = request.messages.find((m) => m.role === "user");
  return message ? messageText(message) : "";
}

export function systemText(request: ChatRequest): string {
  return request.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map(messageText)
    .join("\n");
}

export function toolNames(request: ChatRequest): Set<string> {
  return new Set((request.tools ?? []).map((tool) => tool.function.name));
}
