import { TfgrpoError } from "@tfgrpo/protocol";

/**
 * SIGTERM or SIGINT stops a learning run cleanly: the rollouts in flight are abandoned (a resumed run redoes them), a
 * role call in flight is answered and stored, then the run stops as `interrupted` (resumable) and the command exits
 * non-zero. A second signal exits at once, like a crash (`--resume` still continues from the last checkpoint).
 */
export function stopOnSignal(log: (line: string) => void): Disposable & { signal: AbortSignal } {
  const controller = new AbortController();
  const force = (signal: NodeJS.Signals) => process.exit(signal === "SIGINT" ? 130 : 143);
  const onSignal = (signal: NodeJS.Signals) => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.once("SIGINT", force);
    process.once("SIGTERM", force);
    log(`${signal}: stopping the run (a call in flight finishes first; send it again to exit at once)`);
    controller.abort(
      new TfgrpoError("internal", `stopped by ${signal}: the run is interrupted; continue it with --resume`),
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    [Symbol.dispose]: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", force);
      process.off("SIGTERM", force);
    },
  };
}
