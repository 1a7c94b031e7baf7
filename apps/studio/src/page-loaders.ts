import { countWords, isVagueLesson } from "@tfgrpo/curator";
import { type Experience, TfgrpoError } from "@tfgrpo/protocol";
import { readLearnerStatus } from "@tfgrpo/serving";
import type { Html } from "./html.js";
import { parseLibraryQuery, selectEntries } from "./library-query.js";
import { diffPage, type MergeRecord } from "./pages/diff-page.js";
import { domainsPage } from "./pages/domains-page.js";
import { type EntryEvent, entryPage } from "./pages/entry-page.js";
import type { Flash } from "./pages/layout.js";
import { libraryPage } from "./pages/library-page.js";
import { onlinePage } from "./pages/online-page.js";
import { type CheckFailure, reviewPage } from "./pages/review-page.js";
import { runPage, runsPage } from "./pages/runs-page.js";
import { transferPage } from "./pages/transfer-page.js";
import { versionsPage } from "./pages/versions-page.js";
import { readStepRows } from "./run-steps.js";
import type { StudioStore } from "./studio-store.js";

export interface PageOptions {
  csrf: string;
  flash?: Flash | undefined;
}

export interface CheckRules {
  wordLimit: number;
  minContentWords: number;
}

function notFound(what: string): TfgrpoError {
  return new TfgrpoError("not_found", what);
}

/** Reads what each page shows from the store and renders it; shared by the GET routes and by refused actions. */
export function createPageLoaders(store: StudioStore, rules: CheckRules, hasReport: () => boolean) {
  async function requireDomain(domain: string) {
    const versions = await store.listVersions(domain);
    if (versions.length === 0) throw notFound(`no library "${domain}" in this database`);
    return versions;
  }
  async function versionNumber(domain: string, raw: string | undefined): Promise<number> {
    if (raw !== undefined && raw !== "") {
      if (!/^\d+$/.test(raw)) throw new TfgrpoError("invalid_input", `v: "${raw}" is not a version number`);
      return Number(raw);
    }
    const head = await store.getHeadVersion(domain);
    if (head !== null) return head;
    const versions = await requireDomain(domain);
    return versions.at(-1)!.version;
  }

  return {
    async domains(options: PageOptions): Promise<Html> {
      const summaries = await store.listDomains();
      const rows = await Promise.all(
        summaries.map(async (summary) => ({
          summary,
          lastRun: (await store.listRuns({ domain: summary.domain, limit: 1 }))[0] ?? null,
        })),
      );
      return domainsPage(rows, options.csrf, options.flash);
    },

    async library(
      domain: string,
      params: Record<string, string | undefined>,
      options: PageOptions,
    ): Promise<Html> {
      const version = await versionNumber(domain, params.v);
      const [snapshot, info, head] = await Promise.all([
        store.getVersion(domain, version),
        store.getVersionInfo(domain, version),
        store.getHeadVersion(domain),
      ]);
      if (!snapshot || !info) throw notFound(`library ${domain} has no version ${version}`);
      const query = parseLibraryQuery(params);
      return libraryPage({
        domain,
        version: info,
        head,
        rows: selectEntries(snapshot.experiences, query),
        total: snapshot.experiences.length,
        query,
        ...options,
      });
    },

    async entry(
      domain: string,
      id: string,
      options: PageOptions & { draft?: string | undefined },
    ): Promise<Html> {
      const versions = await requireDomain(domain);
      const head = await store.getHeadVersion(domain);
      // The entry as the head has it, else as the newest version that holds it.
      let entry: Experience | undefined;
      for (const version of head === null
        ? [...versions].reverse()
        : [{ version: head }, ...[...versions].reverse()]) {
        entry = (await store.getVersion(domain, version.version))?.experiences.find((e) => e.id === id);
        if (entry) break;
      }
      if (!entry) throw notFound(`${domain} has no entry ${id}`);
      // Ids are handed out in operation order: the k-th add or merge of the creating version made its k-th new id.
      const creating = versions.find((version) => version.version === entry.provenance.version);
      const born = (await store.getVersion(domain, entry.provenance.version))?.experiences
        .filter((e) => e.provenance.version === entry.provenance.version)
        .map((e) => e.id)
        .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
      const creators = creating?.ops.filter((op) => op.op === "add" || op.op === "merge") ?? [];
      const creator = born && born.length === creators.length ? creators[born.indexOf(id)] : undefined;
      const events: EntryEvent[] = [];
      let text: string | undefined;
      for (const version of versions) {
        for (const operation of version.ops) {
          if (operation === creator) {
            events.push({ version, operation });
            text = (operation as { text: string }).text;
            continue;
          }
          const named =
            operation.op === "merge"
              ? operation.ids.includes(id)
              : operation.op !== "add" && operation.id === id;
          if (!named) continue;
          if (operation.op === "modify" && operation.text !== undefined) {
            events.push({ version, operation, ...(text !== undefined ? { textBefore: text } : {}) });
            text = operation.text;
          } else events.push({ version, operation });
        }
      }
      const versionContrasts = await store.listVersionContrasts(domain, id);
      return entryPage({
        domain,
        entry,
        head,
        events,
        versionContrasts,
        wordLimit: rules.wordLimit,
        ...options,
      });
    },

    async diff(
      domain: string,
      fromRaw: string | undefined,
      toRaw: string | undefined,
      options: PageOptions,
    ): Promise<Html> {
      const versions = await requireDomain(domain);
      const head = await store.getHeadVersion(domain);
      const to = await versionNumber(domain, toRaw);
      const defaultFrom = versions.find((v) => v.version === to)?.parent ?? null;
      const from =
        fromRaw === undefined ? defaultFrom : fromRaw === "" ? null : await versionNumber(domain, fromRaw);
      const diff = await store.diff(domain, from, to);
      const [low, high] = from === null || from < to ? [from ?? 0, to] : [to, from];
      const target = await store.getVersion(domain, high);
      const merges: MergeRecord[] = [];
      for (const version of versions) {
        if (version.version <= low || version.version > high || version.state !== "committed") continue;
        for (const operation of version.ops) {
          if (operation.op !== "merge") continue;
          const into = target?.experiences.find(
            (e) => e.provenance.version === version.version && e.text === operation.text,
          );
          merges.push({
            version: version.version,
            sources: operation.ids,
            into: into?.id ?? null,
            text: operation.text,
            reason: operation.reason,
          });
        }
      }
      return diffPage({ domain, diff, merges, versions, head, ...options });
    },

    async versions(domain: string, options: PageOptions): Promise<Html> {
      const versions = await requireDomain(domain);
      return versionsPage({ domain, versions, head: await store.getHeadVersion(domain), ...options });
    },

    async online(domain: string, options: PageOptions): Promise<Html> {
      await requireDomain(domain);
      return onlinePage({ status: await readLearnerStatus(store, domain), csrf: options.csrf });
    },

    async review(
      domain: string,
      options: PageOptions & { mergeDraft?: { ids: string; text: string } },
    ): Promise<Html> {
      await requireDomain(domain);
      const snapshot = await store.getHead(domain);
      const live = (snapshot?.experiences ?? []).filter((entry) => entry.status !== "archived");
      const groups = new Map<string, Experience[]>();
      for (const entry of live) {
        if (entry.conflictGroup === undefined) continue;
        groups.set(entry.conflictGroup, [...(groups.get(entry.conflictGroup) ?? []), entry]);
      }
      const failures: CheckFailure[] = [];
      for (const entry of live) {
        const words = countWords(entry.text);
        if (words > rules.wordLimit)
          failures.push({ entry, problem: `${words} words, over the ${rules.wordLimit}-word limit` });
        else if (isVagueLesson(entry.text, rules.minContentWords))
          failures.push({ entry, problem: "too vague to act on (no condition, few content words)" });
      }
      return reviewPage({
        domain,
        head: snapshot?.version ?? null,
        candidates: live.filter((entry) => entry.status === "candidate"),
        conflictGroups: [...groups]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, members]) => ({ name, members })),
        failures,
        wordLimit: rules.wordLimit,
        ...options,
      });
    },

    async transfer(domain: string, options: PageOptions): Promise<Html> {
      const versions = await store.listVersions(domain);
      return transferPage({
        domain,
        head: await store.getHeadVersion(domain),
        versions: versions.filter((v) => v.state === "committed").map((v) => v.version),
        ...options,
      });
    },

    async runs(options: PageOptions): Promise<Html> {
      return runsPage(await store.listRuns({ limit: 200 }), options.csrf);
    },

    async run(runId: string, options: PageOptions): Promise<Html> {
      const run = await store.getRun(runId);
      if (!run) throw notFound(`no run "${runId}" in this database`);
      const versions = (await store.listVersions(run.domain)).filter((version) => version.runId === runId);
      return runPage({
        run,
        steps: await readStepRows(store, runId),
        versions,
        hasReport: hasReport(),
        csrf: options.csrf,
      });
    },
  };
}

export type PageLoaders = ReturnType<typeof createPageLoaders>;
