import type { CappedOutput } from "./capped-output.js";

/**
 * Routes one pipe's bytes into the current cell's output until the driver's end marker shows up. The marker can be
 * split across chunks, so the last `marker.length - 1` bytes are held back until the next chunk decides.
 */
export class MarkedStream {
  #pending: Buffer = Buffer.alloc(0);
  #marker: Buffer | undefined;
  #sink: CappedOutput | undefined;
  #onEnd: (() => void) | undefined;

  begin(marker: Buffer, sink: CappedOutput, onEnd: () => void): void {
    this.#pending = Buffer.alloc(0);
    this.#marker = marker;
    this.#sink = sink;
    this.#onEnd = onEnd;
  }

  push(chunk: Buffer): void {
    const marker = this.#marker;
    const sink = this.#sink;
    // Output between cells (nothing should run then) has no one to go to.
    if (!marker || !sink) return;
    const data = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
    const index = data.indexOf(marker);
    if (index >= 0) {
      sink.push(data.subarray(0, index));
      this.#finish();
      return;
    }
    const keepFrom = Math.max(0, data.length - (marker.length - 1));
    if (keepFrom > 0) sink.push(data.subarray(0, keepFrom));
    this.#pending = Buffer.from(data.subarray(keepFrom));
  }

  /** The process ended before the marker: what was held back is real output. */
  flush(): void {
    if (this.#sink && this.#pending.length > 0) this.#sink.push(this.#pending);
    this.#pending = Buffer.alloc(0);
    this.#marker = undefined;
    this.#sink = undefined;
    this.#onEnd = undefined;
  }

  #finish(): void {
    const onEnd = this.#onEnd;
    this.#pending = Buffer.alloc(0);
    this.#marker = undefined;
    this.#sink = undefined;
    this.#onEnd = undefined;
    onEnd?.();
  }
}
