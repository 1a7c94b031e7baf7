import {
  curatorConflicts,
  curatorConsolidate,
  curatorCredit,
  curatorGate,
  curatorLifecycle,
  curatorMerge,
  defineServedSubject,
  type ServedSubject,
} from "@tfgrpo/protocol";
import type { Curator } from "./create-curator.js";

export interface CuratorSubjectsOptions {
  /** Calls per subject at once in this process. */
  concurrency?: number;
}

/**
 * The curator's Bus endpoints (`tfgrpo.curator.*`), all request/reply: each is one short run of model calls and
 * store writes, answered by any curator of the queue group. Pass them to `serveSubjects(bus, ...)`.
 */
export function curatorSubjects(curator: Curator, options: CuratorSubjectsOptions = {}): ServedSubject[] {
  const concurrency = options.concurrency === undefined ? {} : { concurrency: options.concurrency };
  return [
    defineServedSubject({
      subject: curatorConsolidate,
      mode: "request",
      handler: async (input) => {
        const result = await curator.consolidate(input);
        return {
          version: result.version,
          operations: result.operations,
          notes: result.notes,
          usage: result.usage,
        };
      },
      ...concurrency,
    }),
    defineServedSubject({
      subject: curatorCredit,
      mode: "request",
      handler: (input) => curator.credit(input),
      ...concurrency,
    }),
    defineServedSubject({
      subject: curatorGate,
      mode: "request",
      handler: (input) => curator.gate(input),
      ...concurrency,
    }),
    defineServedSubject({
      subject: curatorLifecycle,
      mode: "request",
      handler: async (input) => {
        const result = await curator.updateLifecycle(input.domain, input.version, {
          ...(input.state ? { state: input.state } : {}),
          ...(input.runId ? { runId: input.runId } : {}),
        });
        return {
          version: result.version,
          transitions: result.transitions.map(({ id, from, to, reason }) => ({ id, from, to, reason })),
        };
      },
      ...concurrency,
    }),
    defineServedSubject({
      subject: curatorConflicts,
      mode: "request",
      handler: async (input) => {
        const result = await curator.detectConflicts({
          domain: input.domain,
          ...(input.version !== undefined ? { version: input.version } : {}),
          ...(input.apply ? { apply: input.apply } : {}),
          ...(input.runId ? { runId: input.runId } : {}),
        });
        return {
          version: result.version,
          operations: result.operations,
          notes: result.notes,
          pairs: result.conflicts.pairs,
          usage: result.usage,
        };
      },
      ...concurrency,
    }),
    defineServedSubject({
      subject: curatorMerge,
      mode: "request",
      handler: async (input) => {
        const result = await curator.mergeLibraries({
          from: input.from,
          into: input.into,
          ...(input.runId ? { runId: input.runId } : {}),
          ...(input.commit !== undefined ? { commit: input.commit } : {}),
        });
        return {
          version: result.version,
          committed: result.committed,
          imported: result.imported,
          operations: result.operations,
          notes: result.notes,
          usage: result.usage,
        };
      },
      ...concurrency,
    }),
  ];
}
