export interface ChunkInput<T> {
  items: readonly T[];
  /**
   * Items that belong in one prompt (e.g. paraphrases of one idea), as lists of the items above; every item in at
   * most one group, items in no group travel alone. A group is kept whole whenever it fits a chunk.
   */
  groups?: readonly (readonly T[])[];
  /** Tokens of the item's own line in the prompt. */
  itemTokens: (item: T) => number;
  /**
   * Context lines (library ids) the item needs: `required` always; `optional` (best first) when they fit, the first
   * of them budgeted with the item so every item sees at least its nearest entry when the budget allows.
   */
  contextOf: (item: T) => { required: readonly string[]; optional: readonly string[] };
  contextTokens: (id: string) => number;
  /** Every context id, for the one-prompt case (the whole library fits next to the whole batch). */
  allContext: readonly string[];
  /** Tokens of the fixed part of the prompt (instructions, tags, system message). */
  overhead: number;
  maxTokens: number;
}

export interface Chunk<T> {
  items: T[];
  context: string[];
  tokens: number;
  /** True when even this item alone with its required context exceeds the budget (the caller must clip it). */
  oversize: boolean;
}

/**
 * Splits a batch so no consolidation prompt exceeds the budget. When the whole library and the whole batch fit, one
 * prompt shows everything (the paper's stage 3). Otherwise groups (then lone items) are packed first-fit in the given
 * order: each goes whole into the first chunk with room for it and the library lines it needs (the entries its
 * items name and each item's nearest entry), else into a new chunk; a group larger than an empty chunk is placed
 * item by item. Then each chunk's remaining room is filled with its items' further nearest neighbours.
 */
export function chunkByPromptSize<T>(input: ChunkInput<T>): Chunk<T>[] {
  if (input.items.length === 0) return [];
  const contextTotal = input.allContext.reduce((sum, id) => sum + input.contextTokens(id), 0);
  const itemTotal = input.items.reduce((sum, item) => sum + input.itemTokens(item), 0);
  if (input.overhead + contextTotal + itemTotal <= input.maxTokens) {
    return [
      {
        items: [...input.items],
        context: [...input.allContext],
        tokens: input.overhead + contextTotal + itemTotal,
        oversize: false,
      },
    ];
  }
  interface Open extends Chunk<T> {
    seen: Set<string>;
  }
  const chunks: Open[] = [];
  const open = (): Open => ({
    items: [],
    context: [],
    tokens: input.overhead,
    oversize: false,
    seen: new Set(),
  });
  /** Tokens the items add to a chunk (their lines and the context lines it does not have yet), and those lines. */
  const cost = (items: readonly T[], chunk: Open, withNearest: boolean) => {
    let total = 0;
    const fresh: string[] = [];
    for (const item of items) {
      total += input.itemTokens(item);
      const { required, optional } = input.contextOf(item);
      for (const id of withNearest ? [...required, ...optional.slice(0, 1)] : required) {
        if (chunk.seen.has(id) || fresh.includes(id)) continue;
        fresh.push(id);
        total += input.contextTokens(id);
      }
    }
    return { total, fresh };
  };
  const put = (items: readonly T[], chunk: Open, needed: { total: number; fresh: string[] }) => {
    chunk.items.push(...items);
    chunk.tokens += needed.total;
    for (const id of needed.fresh) {
      chunk.seen.add(id);
      chunk.context.push(id);
    }
  };
  /** Places the items whole in the first chunk with room (a new one if needed); false if they fit no chunk at all. */
  const place = (items: readonly T[]): boolean => {
    for (const withNearest of [true, false]) {
      for (const chunk of chunks) {
        const needed = cost(items, chunk, withNearest);
        if (chunk.tokens + needed.total <= input.maxTokens) {
          put(items, chunk, needed);
          return true;
        }
      }
      const fresh = open();
      const needed = cost(items, fresh, withNearest);
      if (fresh.tokens + needed.total <= input.maxTokens) {
        put(items, fresh, needed);
        chunks.push(fresh);
        return true;
      }
    }
    return false;
  };
  const grouped = new Set<T>();
  const units: (readonly T[])[] = [];
  for (const group of input.groups ?? []) {
    const items = group.filter((item) => !grouped.has(item));
    for (const item of items) grouped.add(item);
    if (items.length > 0) units.push(items);
  }
  for (const item of input.items) if (!grouped.has(item)) units.push([item]);
  for (const unit of units) {
    if (place(unit)) continue;
    for (const item of unit) {
      if (unit.length > 1 && place([item])) continue;
      // Alone and still too big: it gets a chunk of its own, flagged, rather than being dropped.
      const chunk = open();
      put([item], chunk, cost([item], chunk, false));
      chunk.oversize = true;
      chunks.push(chunk);
    }
  }
  for (const chunk of chunks) {
    if (chunk.oversize) continue;
    for (const item of chunk.items) {
      for (const id of input.contextOf(item).optional) {
        if (chunk.seen.has(id)) continue;
        const extra = input.contextTokens(id);
        if (chunk.tokens + extra > input.maxTokens) break;
        chunk.seen.add(id);
        chunk.context.push(id);
        chunk.tokens += extra;
      }
    }
  }
  return chunks.map(({ seen: _, ...chunk }) => chunk);
}
