import type { ServerResponse } from "node:http";
import { simulatedHeader } from "../simulated-label.js";

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    [simulatedHeader]: "1",
    ...headers,
  });
  response.end(text);
}

export function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
  headers: Record<string, string> = {},
) {
  sendJson(
    response,
    status,
    { error: { message: `[simulated] ${message}`, type, param: null, code: null } },
    headers,
  );
}
