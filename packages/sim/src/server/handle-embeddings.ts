import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { defaultEmbeddingDimensions, embeddingToBase64, embedText } from "../embeddings.js";
import { countTokens } from "../prompt-cache.js";
import { readJsonBody } from "./read-body.js";
import { sendJson } from "./send-json.js";
import type { SimServerContext } from "./server-context.js";

const embeddingRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()), z.array(z.number()), z.array(z.array(z.number()))]),
  encoding_format: z.enum(["float", "base64"]).optional(),
  dimensions: z.number().int().min(1).max(4096).optional(),
});

/** POST /v1/embeddings: the sim's deterministic text embeddings (token arrays are embedded as their numbers' text). */
export async function handleEmbeddings(
  context: SimServerContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { raw, value: body } = await readJsonBody(request, embeddingRequestSchema, "embeddings request");
  context.count("embeddings");
  const key = context.requestKey(raw);
  if ((await context.faults.admit(key, request, response)).answered) return;
  const { input, dimensions = defaultEmbeddingDimensions, encoding_format: format = "float" } = body;
  const texts =
    typeof input === "string"
      ? [input]
      : input.length > 0 && typeof input[0] === "number"
        ? [(input as number[]).join(" ")]
        : (input as (string | number[])[]).map((item) => (typeof item === "string" ? item : item.join(" ")));
  const tokens = texts.reduce((sum, text) => sum + countTokens(text), 0);
  sendJson(response, 200, {
    object: "list",
    model: body.model,
    data: texts.map((text, index) => {
      const vector = embedText(text, dimensions);
      return {
        object: "embedding",
        index,
        embedding: format === "base64" ? embeddingToBase64(vector) : vector,
      };
    }),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}
