import { randomUUID } from "node:crypto";
import {
  type ActorConfig,
  type ActorConfigInput,
  createEnvironmentRedactor,
  createExperienceIndex,
  embedLibraryEntries,
  extractCitations,
  parseActorConfig,
  renderExperienceBlock,
} from "@tfgrpo/actor";
import {
  createEmbeddingCache,
  defaultActiveExposureShare,
  type EmbeddingCache,
  type EmbedFunction,
  formatZodIssues,
  seededRandom,
  seedFrom,
  TfgrpoError,
} from "@tfgrpo/protocol";
import { defaultRetentionPolicy, type LibraryStore, type OutcomeStore } from "@tfgrpo/store";
import type { z } from "zod";
import { withExplorationSlot } from "./exploration-slot.js";
import { createIndexCache } from "./index-cache.js";
import {
  type GetExperiencesReply,
  type GetExperiencesRequest,
  getExperiencesRequestSchema,
  getLibraryRequestSchema,
  type LibraryService,
  type LibraryServiceEvent,
  type ReportOutcomeReply,
  reportOutcomeRequestSchema,
} from "./library-service.js";
import { createTaskStratifier, type TaskStratifierOptions } from "./task-stratum.js";
import { varyExposure } from "./vary-exposure.js";

/** Which version an unpinned request is served from (e.g. a canary share); null/undefined: the head. */
export type VersionRouter = (request: {
  domain: string;
  task: string;
  head: number | null;
}) => Promise<{ version: number; meta?: Record<string, unknown> } | null | undefined>;

export interface CreateLibraryServiceOptions {
  store: LibraryStore & OutcomeStore;
  /** The actor's configuration: its `retrieval` section is the selection used (top-k, budget, weights, UCB). */
  config?: ActorConfigInput | ActorConfig;
  /** Embeds texts for the similarity half of retrieval (e.g. `models.embed`); without it, utility alone ranks. */
  embed?: EmbedFunction;
  /** Picks the version of unpinned requests; default: the head. Online learning's canary plugs in here. */
  route?: VersionRouter;
  /** A reward counts as success at or above this, when a report gives only a reward. Default 0.5. */
  successThreshold?: number;
  /**
   * A served version is reloaded after this long: versions are immutable but their entries' stats (what UCB ranks
   * by) change with every outcome. The reload happens in the background; requests keep the previous index until it
   * is ready. Default 5 s.
   */
  statsMaxAgeMs?: number;
  /**
   * Online credit by contrast (DESIGN section 11): the uncertain entries of each selection are shown or withheld by a
   * fair coin per request, and reports are compared within strata of similar tasks. `false`: every selected entry is
   * shown, as before (no contrast). Default on, active entries varied in a third of requests, 8 embedding buckets.
   */
  exposure?: false | { activeShare?: number; strata?: TaskStratifierOptions };
  /** Draws the arms of every request. Default: a generator seeded by each selection's id (so its arms can be replayed). */
  random?: () => number;
  /** Scrubs secrets from every text stored (task, feedback, summary, trajectory strings). Default: environment. */
  redact?: (text: string) => string;
  /**
   * A selection not reported within this long counts as "no report" (never a failure) and its late report is refused
   * (`conflict`), so it is never a contrast observation. Default 1 h (`defaultRetentionPolicy.reportDeadlineMs`).
   */
  reportDeadlineMs?: number;
  /**
   * Bounds of the in-process caches, least recently used evicted first: the served versions' indexes (default 32
   * versions, 256 MiB) and the embeddings of entries and tasks (default 100,000 vectors, 128 MiB).
   */
  cache?: { indexVersions?: number; indexBytes?: number; embeddingEntries?: number; embeddingBytes?: number };
  now?: () => Date;
  generateId?: () => string;
  /** Called after each selection served and each outcome stored (synchronously; must not throw). */
  onEvent?: (event: LibraryServiceEvent) => void;
}

/** The library service over a store, in this process: what the NATS role and the MCP server serve. */
export function createLibraryService(options: CreateLibraryServiceOptions): LibraryService {
  const { store } = options;
  const config = parseActorConfig(options.config ?? {});
  const now = options.now ?? (() => new Date());
  const generateId = options.generateId ?? randomUUID;
  const redact = options.redact ?? createEnvironmentRedactor();
  const successThreshold = options.successThreshold ?? 0.5;
  const embeddings: EmbeddingCache | undefined = options.embed
    ? createEmbeddingCache({
        embed: options.embed,
        ...(options.cache?.embeddingEntries !== undefined
          ? { maxEntries: options.cache.embeddingEntries }
          : {}),
        ...(options.cache?.embeddingBytes !== undefined ? { maxBytes: options.cache.embeddingBytes } : {}),
      })
    : undefined;
  const reportDeadlineMs = options.reportDeadlineMs ?? defaultRetentionPolicy.reportDeadlineMs;
  const indexes = createIndexCache({
    ...(options.cache?.indexVersions !== undefined ? { maxVersions: options.cache.indexVersions } : {}),
    ...(options.cache?.indexBytes !== undefined ? { maxBytes: options.cache.indexBytes } : {}),
    load: (domain, version) => store.getVersion(domain, version),
    maxAgeMs: options.statsMaxAgeMs ?? 5_000,
    build: async (snapshot) => {
      return createExperienceIndex({
        experiences: snapshot.experiences,
        config: config.retrieval,
        ...(embeddings ? await embedLibraryEntries(embeddings, snapshot.experiences) : {}),
      });
    },
  });
  const exposure =
    options.exposure === false
      ? null
      : {
          activeShare: options.exposure?.activeShare ?? defaultActiveExposureShare,
          stratum: createTaskStratifier(options.exposure?.strata),
        };

  /** The version to serve and what to record about the choice. */
  const resolveVersion = async (
    request: GetExperiencesRequest,
  ): Promise<{ version: number | null; meta?: Record<string, unknown> }> => {
    if (request.version !== undefined) {
      const info = await store.getVersionInfo(request.domain, request.version);
      if (!info) {
        throw new TfgrpoError("not_found", `library ${request.domain} has no version ${request.version}`, {
          details: { domain: request.domain, version: request.version },
        });
      }
      if (info.state === "rejected") {
        throw new TfgrpoError(
          "invalid_input",
          `library ${request.domain}@v${request.version} was rejected by its gate; pin a committed version`,
          { details: { domain: request.domain, version: request.version } },
        );
      }
      if (info.state === "proposed" && request.allowProposed !== true) {
        throw new TfgrpoError(
          "invalid_input",
          `library ${request.domain}@v${request.version} is proposed (not decided yet); pin it only on purpose, with allowProposed: true`,
          { details: { domain: request.domain, version: request.version, state: info.state } },
        );
      }
      return { version: request.version, meta: { pinned: true } };
    }
    const head = await store.getHeadVersion(request.domain);
    const routed = options.route
      ? await options.route({ domain: request.domain, task: request.task, head })
      : null;
    if (routed) return { version: routed.version, ...(routed.meta ? { meta: routed.meta } : {}) };
    return { version: head };
  };

  return {
    async getExperiences(input, context) {
      const request = parse(getExperiencesRequestSchema, input, "get_experiences");
      const { version, meta } = await resolveVersion(request);
      const task = redact(request.task);
      let reply: GetExperiencesReply;
      let withheldIds: string[] = [];
      let stratum: string | undefined;
      const selectionId = generateId();
      if (version === null) {
        reply = {
          selectionId,
          domain: request.domain,
          version,
          entries: [],
          explorationIds: [],
          promptBlock: "",
        };
      } else {
        const served = await indexes(request.domain, version);
        if (!served) {
          throw new TfgrpoError("not_found", `library ${request.domain} has no version ${version}`, {
            details: { domain: request.domain, version },
          });
        }
        const { snapshot, index } = served;
        const taskVector =
          embeddings && index.dimensions > 0 ? ((await embeddings.embed([request.task]))[0] ?? null) : null;
        const slot = withExplorationSlot(index.select(taskVector, request.task), snapshot.experiences, {
          task: request.task,
          ...(request.k !== undefined ? { k: request.k } : {}),
        });
        const plan = exposure
          ? varyExposure(slot, {
              activeShare: exposure.activeShare,
              random: options.random ?? seededRandom(seedFrom(selectionId, "exposure")),
            })
          : { ...slot, withheldIds: [] };
        withheldIds = plan.withheldIds;
        // Only a selection that varied something has reports worth comparing.
        if (exposure && (plan.explorationIds.length > 0 || withheldIds.length > 0)) {
          stratum = exposure.stratum({
            vector: taskVector,
            ...(request.family !== undefined ? { family: request.family } : {}),
          });
        }
        const exploration = new Set(plan.explorationIds);
        reply = {
          selectionId,
          domain: request.domain,
          version,
          entries: plan.shown.map((entry) => ({
            id: entry.id,
            text: entry.text,
            status: entry.status,
            exploration: exploration.has(entry.id),
          })),
          explorationIds: plan.explorationIds,
          promptBlock: renderExperienceBlock(plan.shown, plan.mostUseful),
        };
      }
      await store.recordSelection({
        selectionId,
        domain: request.domain,
        version,
        entryIds: reply.entries.map((entry) => entry.id),
        explorationIds: reply.explorationIds,
        ...(withheldIds.length > 0 ? { withheldIds } : {}),
        ...(stratum !== undefined ? { stratum } : {}),
        task,
        servedAt: now().toISOString(),
        ...(meta ? { meta } : {}),
        ...(context?.client ? { client: context.client } : {}),
      });
      options.onEvent?.({ type: "served", reply, task });
      return reply;
    },

    async reportOutcome(input, context) {
      const request = parse(reportOutcomeRequestSchema, input, "report_outcome");
      const reward = request.reward ?? (request.success ? 1 : 0);
      const success = request.success ?? reward >= successThreshold;
      const trajectory =
        request.trajectory === undefined ? undefined : redactJson(request.trajectory, redact);
      const summary = request.summary === undefined ? undefined : redact(request.summary);
      const citedIds =
        request.citedIds ??
        extractCitations([summary ?? "", ...(trajectory === undefined ? [] : collectStrings(trajectory))]);
      const outcome = await store.reportOutcome(
        {
          selectionId: request.selectionId,
          reward,
          success,
          ...(request.feedback !== undefined ? { feedback: redact(request.feedback) } : {}),
          ...(trajectory !== undefined ? { trajectory } : {}),
          ...(summary !== undefined ? { summary } : {}),
          citedIds,
          ...(context?.client ? { client: context.client } : {}),
        },
        { now: now(), deadlineMs: reportDeadlineMs },
      );
      const reply: ReportOutcomeReply = {
        selectionId: outcome.selectionId,
        domain: outcome.domain,
        version: outcome.version,
        reward: outcome.reward,
        success: outcome.success,
        creditedIds: outcome.entryIds,
        citedIds: outcome.citedIds,
        reportedAt: outcome.reportedAt,
      };
      options.onEvent?.({ type: "outcome", reply });
      return reply;
    },

    async getLibrary(input) {
      const request = parse(getLibraryRequestSchema, input, "get_library");
      const version = request.version ?? (await store.getHeadVersion(request.domain));
      const [snapshot, info] =
        version === null
          ? [null, null]
          : await Promise.all([
              store.getVersion(request.domain, version),
              store.getVersionInfo(request.domain, version),
            ]);
      if (!snapshot || !info) {
        throw new TfgrpoError(
          "not_found",
          request.version === undefined
            ? `library ${request.domain} has no committed version`
            : `library ${request.domain} has no version ${request.version}`,
          { details: { domain: request.domain, version: request.version ?? "head" } },
        );
      }
      return { snapshot, info };
    },

    async listVersions(domain) {
      return store.listVersions(domain);
    },
  };
}

/** Input checked against its schema; a bad one is `invalid_input` naming the call and the field. */
function parse<T>(schema: z.ZodType<T>, value: unknown, call: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new TfgrpoError("invalid_input", `${call}: ${formatZodIssues(result.error.issues)}`, {
      details: { call },
    });
  }
  return result.data;
}

function redactJson(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactJson(item, redact)]));
  }
  return value;
}

function collectStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out);
  else if (value !== null && typeof value === "object")
    for (const item of Object.values(value)) collectStrings(item, out);
  return out;
}
