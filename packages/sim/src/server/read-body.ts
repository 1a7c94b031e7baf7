import type { IncomingMessage } from "node:http";
import { formatZodIssues, safeParseJson } from "@tfgrpo/protocol";
import type { z } from "zod";
import { HttpError } from "./http-error.js";

const maxBodyBytes = 32 * 1024 * 1024;

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new HttpError(413, `request body over ${maxBodyBytes} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** The request's JSON body checked against a schema: 400 naming what is wrong, as the OpenAI API answers. */
export async function readJsonBody<S extends z.ZodType>(
  request: IncomingMessage,
  schema: S,
  what: string,
): Promise<{ raw: string; value: z.infer<S> }> {
  const raw = await readBody(request);
  const json = safeParseJson(raw);
  if (!json.success) throw new HttpError(400, `body is not JSON: ${json.error}`);
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) throw new HttpError(400, `invalid ${what}: ${formatZodIssues(parsed.error.issues)}`);
  return { raw, value: parsed.data };
}
