/**
 * Keeps the head and the tail of a byte stream within a budget. Both ends matter to a model: the head shows what a
 * program printed first, the tail holds the traceback or the final answer.
 */
export interface CappedOutput {
  push(chunk: Uint8Array): void;
  /** All bytes seen, kept or not. */
  readonly totalBytes: number;
  readonly truncated: boolean;
  text(): string;
}

export function createCappedOutput(maxBytes: number): CappedOutput {
  const headLimit = Math.ceil(maxBytes * 0.6);
  const tailLimit = maxBytes - headLimit;
  const head: Uint8Array[] = [];
  let headBytes = 0;
  // The tail is a list of recent chunks trimmed from the front when it grows past twice its limit.
  let tail: Uint8Array[] = [];
  let tailBytes = 0;
  let totalBytes = 0;

  return {
    push(chunk) {
      totalBytes += chunk.length;
      let rest = chunk;
      if (headBytes < headLimit) {
        const take = Math.min(headLimit - headBytes, rest.length);
        head.push(rest.subarray(0, take));
        headBytes += take;
        rest = rest.subarray(take);
      }
      if (rest.length === 0 || tailLimit === 0) return;
      tail.push(rest);
      tailBytes += rest.length;
      if (tailBytes > tailLimit * 2) {
        const joined = Buffer.concat(tail);
        const kept = joined.subarray(joined.length - tailLimit);
        tail = [kept];
        tailBytes = kept.length;
      }
    },
    get totalBytes() {
      return totalBytes;
    },
    get truncated() {
      return totalBytes > maxBytes;
    },
    text() {
      const headText = Buffer.concat(head).toString("utf8");
      const tailJoined = Buffer.concat(tail);
      if (totalBytes <= maxBytes) return headText + tailJoined.toString("utf8");
      const kept = tailJoined.subarray(Math.max(0, tailJoined.length - tailLimit));
      const dropped = totalBytes - headBytes - kept.length;
      return `${headText}\n[... ${dropped} bytes truncated ...]\n${kept.toString("utf8")}`;
    },
  };
}
