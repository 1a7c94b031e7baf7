import { type Context, inSpan, markFailed, type Span, spanAttributes, startSpan } from "@tfgrpo/protocol";

interface StepState {
  step: number;
  epoch: number;
  headVersion: number | null;
}

/**
 * One trace per learning step: the step's span is a root, opened when `sampleBatch` starts a step and closed when
 * `finishStep` ends it (or a node fails); every graph node runs as its child, and so does everything the node does —
 * rollouts on other machines included, through the Bus's trace headers. A step resumed in a new process gets a new
 * step span (marked `tfgrpo.resumed`). With tracing off this is the API's no-op.
 */
export function createStepTracing(run: { runId: string; domain: string }) {
  const open = new Map<number, { span: Span; context: Context }>();

  const openStep = (step: number, epoch: number, headVersion: number | null, resumed: boolean) => {
    const existing = open.get(step);
    if (existing) return existing;
    const started = startSpan(`learn step ${step}`, {
      root: true,
      attributes: {
        [spanAttributes.runId]: run.runId,
        [spanAttributes.domain]: run.domain,
        [spanAttributes.step]: step,
        [spanAttributes.epoch]: epoch + 1,
        ...(headVersion === null ? {} : { [spanAttributes.libraryVersion]: headVersion }),
        ...(resumed ? { "tfgrpo.resumed": true } : {}),
      },
    });
    open.set(step, started);
    return started;
  };

  const closeStep = (step: number, error?: unknown) => {
    const started = open.get(step);
    if (!started) return;
    if (error !== undefined) markFailed(started.span, error);
    started.span.end();
    open.delete(step);
  };

  return <S, R>(name: string, node: (state: S) => Promise<R>) =>
    async (state: S & StepState): Promise<R> => {
      // sampleBatch starts the next step; every other node belongs to the step in the state.
      const starting = name === "sampleBatch";
      const step = starting ? state.step + 1 : state.step;
      const { context } = openStep(step, state.epoch, state.headVersion, !starting);
      let result: R;
      try {
        result = await inSpan(
          name,
          { parent: context, attributes: { [spanAttributes.node]: name, [spanAttributes.step]: step } },
          () => node(state),
        );
      } catch (error) {
        closeStep(step, error);
        throw error;
      }
      const update = result as Partial<{ done: boolean; headVersion: number | null }>;
      if (starting && update.done) {
        open.get(step)?.span.updateName("learn end");
        closeStep(step);
      } else if (name === "finishStep") {
        if (update.headVersion !== undefined && update.headVersion !== null)
          open.get(step)?.span.setAttribute("tfgrpo.head_after", update.headVersion);
        closeStep(step);
      }
      return result;
    };
}
