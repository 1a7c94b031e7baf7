/**
 * One raw MCP `initialize` POST (no SDK client): for tests that read the HTTP answer itself (a 401, 429 or 503, its
 * headers, its JSON-RPC error) rather than a session.
 */
export function postMcpInitialize(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}
