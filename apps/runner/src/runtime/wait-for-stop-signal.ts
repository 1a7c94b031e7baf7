/**
 * Resolves with the first SIGINT or SIGTERM (a long-running command's stop request). `onSecond`, when given, runs on
 * a second signal after the first (e.g. to exit at once instead of finishing the work in flight).
 */
export function waitForStopSignal(options: { onSecond?: () => void } = {}): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (options.onSecond) {
        process.once("SIGINT", options.onSecond);
        process.once("SIGTERM", options.onSecond);
      }
      resolve(signal);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}
