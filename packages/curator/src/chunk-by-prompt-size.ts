export interface ChunkInput<T> {
  items: readonly T[];
  /** Tokens of the item's own line in the prompt. */
  itemTokens: (item: T) => number;
  /** Context lines (library ids) the item needs: `required` always, `optional` (best first) when they fit. */
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
 * prompt shows everything (the paper's stage 3). Otherwise items are packed greedily in the given order (callers
 * order related items next to each other) and each chunk carries only the library lines its items need: the
 * entries they name, then their nearest neighbours while they fit.
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
  const chunks: Chunk<T>[] = [];
  let current: Chunk<T> = { items: [], context: [], tokens: input.overhead, oversize: false };
  let contextSet = new Set<string>();
  const close = () => {
    if (current.items.length > 0) chunks.push(current);
    current = { items: [], context: [], tokens: input.overhead, oversize: false };
    contextSet = new Set();
  };
  const cost = (ids: readonly string[], seen: Set<string>) => {
    let total = 0;
    const fresh: string[] = [];
    for (const id of ids) {
      if (seen.has(id) || fresh.includes(id)) continue;
      fresh.push(id);
      total += input.contextTokens(id);
    }
    return { total, fresh };
  };
  for (const item of input.items) {
    const own = input.itemTokens(item);
    const { required, optional } = input.contextOf(item);
    for (let attempt = 0; attempt < 2; attempt++) {
      const needed = cost(required, contextSet);
      if (current.tokens + own + needed.total <= input.maxTokens) {
        current.items.push(item);
        current.tokens += own + needed.total;
        for (const id of needed.fresh) {
          contextSet.add(id);
          current.context.push(id);
        }
        for (const id of optional) {
          if (contextSet.has(id)) continue;
          const extra = input.contextTokens(id);
          if (current.tokens + extra > input.maxTokens) break;
          contextSet.add(id);
          current.context.push(id);
          current.tokens += extra;
        }
        break;
      }
      if (current.items.length > 0) {
        close();
        continue;
      }
      // Alone and still too big: it gets a chunk of its own, flagged, rather than being dropped.
      current.items.push(item);
      current.context.push(...needed.fresh);
      current.tokens += own + needed.total;
      current.oversize = true;
      break;
    }
  }
  close();
  return chunks;
}
