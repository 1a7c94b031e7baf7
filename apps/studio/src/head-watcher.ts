export interface HeadChange {
  domain: string;
  head: number | null;
  /** The head seen before (null: new domain or first commit). */
  previous: number | null;
}

export interface HeadWatcherSource {
  listDomains(): Promise<Array<{ domain: string; head: number | null }>>;
}

export interface HeadWatcher {
  /** Calls `listener` for every head that moves; returns the unsubscribe. Polling runs only while someone listens. */
  subscribe(listener: (change: HeadChange) => void): () => void;
  /** One poll now (tests; the timer calls it too). */
  poll(): Promise<HeadChange[]>;
  /** The head seen by the last poll (undefined: domain unknown or not polled yet). */
  headOf(domain: string): number | null | undefined;
  close(): void;
}

/**
 * Watches the committed heads of every domain by polling the store (one small query per interval, only while a page
 * listens): a run in another process commits through the same database, and this is how open pages learn of it.
 */
export function createHeadWatcher(source: HeadWatcherSource, intervalMs = 1000): HeadWatcher {
  const listeners = new Set<(change: HeadChange) => void>();
  let heads: Map<string, number | null> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let polling: Promise<HeadChange[]> | null = null;

  async function pollOnce(): Promise<HeadChange[]> {
    const domains = await source.listDomains();
    const next = new Map(domains.map((domain) => [domain.domain, domain.head]));
    const changes: HeadChange[] = [];
    if (heads !== null) {
      for (const [domain, head] of next) {
        const previous = heads.get(domain) ?? null;
        if (!heads.has(domain) || previous !== head) changes.push({ domain, head, previous });
      }
    }
    heads = next;
    for (const change of changes) for (const listener of listeners) listener(change);
    return changes;
  }

  const poll = () => {
    // One poll at a time: a slow query is not stacked up by the timer.
    polling ??= pollOnce().finally(() => {
      polling = null;
    });
    return polling;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (timer === null) {
        void poll().catch(() => {});
        timer = setInterval(() => void poll().catch(() => {}), intervalMs);
        timer.unref?.();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== null) {
          clearInterval(timer);
          timer = null;
          heads = null;
        }
      };
    },
    poll,
    headOf: (domain) => heads?.get(domain),
    close() {
      listeners.clear();
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
