import { TfgrpoError } from "../errors.js";
import { type SubjectTable, subjectTable } from "../subjects.js";
import type { Bus, Handle, HandlerContext, JobContext } from "./bus.js";
import {
  defineServedSubject,
  type ServedSubject,
  type ServeSubjectsOptions,
  serveSubjects,
} from "./serve-subjects.js";
import type { ServeMode, Subject } from "./subject.js";

/** What an endpoint's handler is told: the mode it was called in and, for a job, its id, attempt and heartbeat. */
export type EndpointContext = ({ mode: "request" } & HandlerContext) | ({ mode: "job" } & JobContext);

// biome-ignore lint/suspicious/noExplicitAny: a table holds subjects of every input and output type
type AnySubject = Subject<any, any>;

/** A role's endpoints by operation; the endpoint `<operation>` of role `<role>` is `tfgrpo.<role>.<operation>`. */
export type RoleEndpoints = Readonly<Record<string, AnySubject>>;

export type EndpointHandler<S> =
  S extends Subject<infer I, infer O> ? (input: I, context: EndpointContext) => Promise<O> : never;

/** One typed handler per endpoint of the role, input and output from its subject. */
export type RoleHandlers<E extends RoleEndpoints> = { readonly [K in keyof E]: EndpointHandler<E[K]> };

export interface DefineRoleOptions {
  /** Calls or jobs at once per endpoint and mode in this process (default: the Bus's default). */
  concurrency?: number;
  /** Serve only these modes (e.g. an actor that only works queued jobs); default: every mode of each subject. */
  modes?: readonly ServeMode[];
}

/** A role's handlers bound to its subjects, ready to put on any Bus. */
export interface RoleDefinition<N extends string = string> {
  readonly name: N;
  /** Every endpoint once per mode it is served in, in the order of the role's subject table. */
  readonly endpoints: readonly ServedSubject[];
  /** Subscribes every endpoint; the handle's close() stops them all and waits for what is in flight. */
  serve(bus: Bus, options?: ServeSubjectsOptions): Promise<Handle>;
}

type AnyEndpointHandler = (input: unknown, context: EndpointContext) => Promise<unknown>;

/**
 * Defines a role's endpoints in one place, router-like: `defineRole("critic", { reward, advantage })`. The
 * schemas and the serve modes (jobs, requests or both) come from the subject table, so each handler is typed by
 * its subject and a role serves exactly its table: a missing or unknown operation fails here, not on the wire.
 * A role outside the table (a plugin or a test role) passes its own `subjects`, named `tfgrpo.<role>.<operation>`.
 */
export function defineRole<N extends keyof SubjectTable>(
  name: N,
  handlers: RoleHandlers<SubjectTable[N]>,
  options?: DefineRoleOptions,
): RoleDefinition<N>;
export function defineRole<N extends string, E extends RoleEndpoints>(
  name: N,
  handlers: RoleHandlers<E>,
  options: DefineRoleOptions & { subjects: E },
): RoleDefinition<N>;
export function defineRole(
  name: string,
  handlers: Readonly<Record<string, AnyEndpointHandler>>,
  options: DefineRoleOptions & { subjects?: RoleEndpoints } = {},
): RoleDefinition {
  const table = subjectTable as Readonly<Record<string, RoleEndpoints>>;
  const subjects = options.subjects ?? (Object.hasOwn(table, name) ? table[name] : undefined);
  if (!subjects) {
    throw new TfgrpoError(
      "invalid_input",
      `role "${name}" is not in the subject table (${Object.keys(table).join(", ")}); pass its subjects`,
      { details: { role: name } },
    );
  }
  const unknown = Object.keys(handlers).filter((operation) => !Object.hasOwn(subjects, operation));
  const missing = Object.keys(subjects).filter((operation) => typeof handlers[operation] !== "function");
  if (unknown.length > 0 || missing.length > 0) {
    throw new TfgrpoError(
      "invalid_input",
      `role "${name}" serves ${Object.keys(subjects).join(", ")}` +
        (missing.length > 0 ? `; no handler for ${missing.join(", ")}` : "") +
        (unknown.length > 0 ? `; no such endpoint: ${unknown.join(", ")}` : ""),
      { details: { role: name, missing, unknown } },
    );
  }
  const modes = options.modes ? new Set(options.modes) : undefined;
  const concurrency = options.concurrency === undefined ? {} : { concurrency: options.concurrency };
  const endpoints: ServedSubject[] = [];
  for (const [operation, subject] of Object.entries(subjects)) {
    if (subject.name !== `tfgrpo.${name}.${operation}`) {
      throw new TfgrpoError(
        "invalid_input",
        `role "${name}" endpoint "${operation}" must be the subject tfgrpo.${name}.${operation}, got ${subject.name}`,
        { details: { role: name, operation, subject: subject.name } },
      );
    }
    const handler = handlers[operation]!;
    for (const mode of subject.modes) {
      if (modes && !modes.has(mode)) continue;
      endpoints.push(
        mode === "request"
          ? defineServedSubject<unknown, unknown>({
              subject,
              mode,
              handler: (input, context) =>
                handler(input, {
                  mode,
                  signal: context.signal,
                  ...(context.caller === undefined ? {} : { caller: context.caller }),
                }),
              ...concurrency,
            })
          : defineServedSubject<unknown, unknown>({
              subject,
              mode,
              handler: (input, context) =>
                handler(input, {
                  mode,
                  signal: context.signal,
                  jobId: context.jobId,
                  attempt: context.attempt,
                  working: () => context.working(),
                }),
              ...concurrency,
            }),
      );
    }
  }
  return {
    name,
    endpoints,
    serve: (bus, serveOptions) => serveSubjects(bus, endpoints, serveOptions),
  };
}
