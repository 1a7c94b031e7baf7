import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type SearchItem,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import {
  createEmbeddingCache,
  type EmbeddingCache,
  type EmbedFunction,
  type Experience,
  type LibrarySnapshot,
  TfgrpoError,
} from "@tfgrpo/protocol";
import type { LibraryService } from "@tfgrpo/serving";
import { matchesFilter } from "./match-filter.js";

export interface LibraryBaseStoreOptions {
  library: Pick<LibraryService, "getLibrary">;
  /** The domains exposed, each as the namespace [...prefix, domain]. */
  domains: readonly string[];
  /** Default ["experiences"]: `store.search(["experiences", "math"], { query })`. */
  prefix?: readonly string[];
  /** Pin every domain to a version (default: the head at each read). */
  version?: number;
  /** Embeds texts for `query` ranking (cosine); without it a query ranks by shared words. */
  embed?: EmbedFunction;
  /** Show archived entries too (default: only what an agent may be shown). */
  includeArchived?: boolean;
  /** A library read is reused this long (default 2 s). */
  maxAgeMs?: number;
}

/**
 * A tfgrpo experience library as a read-only LangGraph `BaseStore`, for code that already reads LangGraph stores:
 * each domain is the namespace `[...prefix, domain]`, each entry an item keyed by its id (`G3`) whose value is
 * `{ text, status, scope?, conflictGroup?, shown, success, version }`. `get`, `search` (filter on value fields with
 * `$eq/$ne/$gt/$gte/$lt/$lte/$in`, `query` ranked by embedding similarity or shared words) and `listNamespaces`
 * work; `put` and `delete` are refused — the library changes only through its curator and gate.
 */
export class LibraryBaseStore extends BaseStore {
  private readonly options: LibraryBaseStoreOptions;
  private readonly prefix: readonly string[];
  private readonly embeddings: EmbeddingCache | undefined;
  private readonly cache = new Map<string, { at: number; snapshot: Promise<LibrarySnapshot | null> }>();

  constructor(options: LibraryBaseStoreOptions) {
    super();
    this.options = options;
    this.prefix = options.prefix ?? ["experiences"];
    this.embeddings = options.embed ? createEmbeddingCache({ embed: options.embed }) : undefined;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const operation of operations) {
      if ("value" in operation) {
        throw new TfgrpoError(
          "invalid_input",
          `the experience library store is read-only: ${operation.value === null ? "delete" : "put"} ` +
            `${[...operation.namespace, operation.key].join("/")} refused (libraries change through the curator)`,
        );
      }
      if ("key" in operation) results.push(await this.getItem(operation));
      else if ("namespacePrefix" in operation) results.push(await this.searchItems(operation));
      else results.push(this.namespaces(operation));
    }
    return results as OperationResults<Op>;
  }

  private domainOf(namespace: readonly string[]): string | null {
    if (namespace.length !== this.prefix.length + 1) return null;
    if (!this.prefix.every((part, index) => namespace[index] === part)) return null;
    const domain = namespace.at(-1)!;
    return this.options.domains.includes(domain) ? domain : null;
  }

  private snapshot(domain: string): Promise<LibrarySnapshot | null> {
    const hit = this.cache.get(domain);
    if (hit && Date.now() - hit.at < (this.options.maxAgeMs ?? 2_000)) return hit.snapshot;
    const snapshot = this.options.library
      .getLibrary({
        domain,
        ...(this.options.version === undefined ? {} : { version: this.options.version }),
      })
      .then(
        (library) => library.snapshot,
        (error: unknown) => {
          // A domain without a committed version is an empty namespace, not an error.
          if (TfgrpoError.isInstance(error) && error.code === "not_found") return null;
          throw error;
        },
      );
    this.cache.set(domain, { at: Date.now(), snapshot });
    snapshot.catch(() => this.cache.delete(domain));
    return snapshot;
  }

  private async items(domain: string): Promise<Item[]> {
    const snapshot = await this.snapshot(domain);
    if (!snapshot) return [];
    return snapshot.experiences
      .filter((entry) => this.options.includeArchived || entry.status !== "archived")
      .map((entry) => toItem(entry, [...this.prefix, domain], snapshot.version));
  }

  private async getItem(operation: GetOperation): Promise<Item | null> {
    const domain = this.domainOf(operation.namespace);
    if (domain === null) return null;
    return (await this.items(domain)).find((item) => item.key === operation.key) ?? null;
  }

  private async searchItems(operation: SearchOperation): Promise<SearchItem[]> {
    const wanted = operation.namespacePrefix;
    const domains = this.options.domains.filter((domain) =>
      wanted.every((part, index) => [...this.prefix, domain][index] === part),
    );
    let found: SearchItem[] = [];
    for (const domain of domains) found.push(...(await this.items(domain)));
    if (operation.filter) found = found.filter((item) => matchesFilter(item.value, operation.filter!));
    if (operation.query) {
      const scores = await this.score(operation.query, found);
      found = found.map((item, index) => ({ ...item, score: scores[index]! }));
      found.sort((a, b) => b.score! - a.score! || Number(a.key.slice(1)) - Number(b.key.slice(1)));
    }
    const offset = operation.offset ?? 0;
    return found.slice(offset, offset + (operation.limit ?? 10));
  }

  private async score(query: string, items: readonly Item[]): Promise<number[]> {
    if (this.embeddings) {
      const [q, ...vectors] = await this.embeddings.embed([
        query,
        ...items.map((item) => item.value.text as string),
      ]);
      return vectors.map((vector) => {
        let dot = 0;
        for (let i = 0; i < vector.length; i++) dot += vector[i]! * q![i]!;
        return dot;
      });
    }
    const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
    const asked = words(query);
    return items.map((item) => {
      const have = words(item.value.text as string);
      let shared = 0;
      for (const word of asked) if (have.has(word)) shared++;
      return asked.size === 0 ? 0 : shared / asked.size;
    });
  }

  private namespaces(operation: ListNamespacesOperation): string[][] {
    let all = this.options.domains.map((domain) => [...this.prefix, domain]);
    for (const condition of operation.matchConditions ?? []) {
      all = all.filter((namespace) => {
        const path = condition.path;
        const part =
          condition.matchType === "prefix" ? namespace.slice(0, path.length) : namespace.slice(-path.length);
        return part.length === path.length && path.every((p, i) => p === "*" || p === part[i]);
      });
    }
    if (operation.maxDepth !== undefined) {
      all = [
        ...new Map(all.map((n) => n.slice(0, operation.maxDepth)).map((n) => [n.join("\0"), n])).values(),
      ];
    }
    return all.slice(operation.offset, operation.offset + operation.limit);
  }
}

function toItem(entry: Experience, namespace: string[], version: number): Item {
  return {
    namespace,
    key: entry.id,
    value: {
      text: entry.text,
      status: entry.status,
      ...(entry.scope ? { scope: entry.scope } : {}),
      ...(entry.conflictGroup ? { conflictGroup: entry.conflictGroup } : {}),
      shown: entry.stats.shown,
      success: entry.stats.success,
      version,
    },
    createdAt: new Date(entry.createdAt),
    updatedAt: new Date(entry.updatedAt),
  };
}
