/** A signal of one call, aborted with its caller's, and the unlinking of the two once the call is over. */
export interface LinkedAbortSignal extends Disposable {
  readonly signal: AbortSignal | undefined;
}

/**
 * A fresh signal per call, following `outer` until disposed. Clients that add an abort listener to the signal they
 * are given and never remove it (the OpenAI SDK per request, undici's Request until it is collected) then collect
 * one listener per call on a throwaway signal, not on the caller's: an attempt that makes 60 model calls and 40 tool
 * calls on one signal would otherwise hold 100 listeners on it and print MaxListenersExceededWarning.
 * Without `outer` there is nothing to follow and no signal is made.
 */
export function linkAbortSignal(outer: AbortSignal | undefined): LinkedAbortSignal {
  if (!outer) return { signal: undefined, [Symbol.dispose]: () => {} };
  const controller = new AbortController();
  const forward = () => controller.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener("abort", forward, { once: true });
  return {
    signal: controller.signal,
    [Symbol.dispose]: () => outer.removeEventListener("abort", forward),
  };
}
