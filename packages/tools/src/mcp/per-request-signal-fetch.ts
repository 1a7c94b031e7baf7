import { linkAbortSignal } from "@tfgrpo/protocol";

type Fetch = typeof fetch;

/** Statuses whose response has no body (a Response built with one throws). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch whose every request gets its own abort signal, following the caller's until the response body has been
 * read (or cancelled). The MCP SDK's HTTP client passes one signal, its transport's, to every request of a session,
 * and undici's Request keeps an abort listener on the signal it is given until the request is garbage collected: a
 * session of more than ten tool calls printed MaxListenersExceededWarning. Here the caller's signal holds one listener
 * per request in flight, removed when that request is done.
 */
export function perRequestSignalFetch(base: Fetch = fetch): Fetch {
  return async (input, init) => {
    if (!init?.signal) return base(input, init);
    const link = linkAbortSignal(init.signal);
    let response: Response;
    try {
      response = await base(input, { ...init, signal: link.signal ?? null });
    } catch (error) {
      link[Symbol.dispose]();
      throw error;
    }
    const body = response.body;
    if (!body || nullBodyStatuses.has(response.status) || (response.status >= 300 && response.status < 400)) {
      link[Symbol.dispose]();
      return response;
    }
    const reader = body.getReader();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            link[Symbol.dispose]();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          link[Symbol.dispose]();
          controller.error(error);
        }
      },
      cancel(reason) {
        link[Symbol.dispose]();
        return reader.cancel(reason);
      },
    });
    return new Response(stream, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
