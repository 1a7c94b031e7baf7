import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TimeInput,
  trace,
} from "@opentelemetry/api";

export { type Attributes, type Context, type Span, SpanKind };

/**
 * tfgrpo's spans, through the OpenTelemetry API only. Until a process registers an SDK (the CLI's composition root
 * does, when tracing is on), every call here is the API's no-op: no exporter is loaded and a span costs a few
 * property reads.
 */
export function tfgrpoTracer() {
  return trace.getTracer("tfgrpo");
}

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /** Start a new trace instead of a child of the active span (a learning step is one trace). */
  root?: boolean;
  /** The parent, when it is not the active context (a context read from a message's headers). */
  parent?: Context;
}

/**
 * Runs `work` inside a new active span: spans started inside it (across awaits) are its children. A thrown error is
 * recorded on the span and rethrown; the span always ends.
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const { span, context: active } = startSpan(name, options);
  try {
    return await context.with(active, () => work(span));
  } catch (error) {
    markFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** A span for work that already happened (a model call known once its answer is in), child of the active span. */
export function recordSpan(
  name: string,
  options: { start: TimeInput; end: TimeInput; attributes?: Attributes; kind?: SpanKind; error?: string },
): void {
  const span = tfgrpoTracer().startSpan(name, {
    startTime: options.start,
    ...(options.attributes ? { attributes: options.attributes } : {}),
    ...(options.kind !== undefined ? { kind: options.kind } : {}),
  });
  if (options.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: options.error });
  span.end(options.end);
}

/** A started span the caller ends (a learning step spans several graph nodes). */
export function startSpan(name: string, options: SpanOptions = {}): { span: Span; context: Context } {
  const parent = options.root ? ROOT_CONTEXT : (options.parent ?? context.active());
  const span = tfgrpoTracer().startSpan(
    name,
    {
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.kind !== undefined ? { kind: options.kind } : {}),
      ...(options.root ? { root: true } : {}),
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `work` with `active` as the active context (spans started inside become its children). */
export function withContext<T>(active: Context, work: () => T): T {
  return context.with(active, work);
}

export function markFailed(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  if (error instanceof Error) span.recordException(error);
}

/** Whether a tracing SDK is recording (attributes that cost something to compute can be skipped when not). */
export function isTracing(): boolean {
  return trace.getActiveSpan()?.isRecording() ?? false;
}

/**
 * The active trace context as message headers (W3C `traceparent`/`tracestate`), so work done in another process is
 * a child of this one. Empty when tracing is off.
 */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context a message's trace headers carry (the root context when they carry none). */
export function contextFromHeaders(get: (name: string) => string | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, null, {
    get: (_carrier, key) => get(key),
    keys: () => ["traceparent", "tracestate", "baggage"],
  });
}
