import { createHash } from "node:crypto";
import { type Subject, TfgrpoError } from "@tfgrpo/protocol";

/**
 * Every NATS and JetStream name the NATS Bus uses, derived from one prefix so two deployments (or two tests) can
 * share a server without seeing each other. With the default prefix "TFGRPO" the subjects are exactly the Bus
 * subject names (`tfgrpo.actor.rollout`), jobs go to `tfgrpo.jobs.actor.rollout` and results to
 * `tfgrpo.results.actor.rollout.<replyTo>`.
 */
export interface NatsNames {
  /** Lower-case first subject token: "tfgrpo" for the default prefix. */
  readonly root: string;
  readonly jobsStream: string;
  readonly resultsStream: string;
  readonly jobsWildcard: string;
  readonly resultsWildcard: string;
  requestSubject(subject: Subject<unknown, unknown>): string;
  queueGroup(subject: Subject<unknown, unknown>): string;
  jobSubject(subject: Subject<unknown, unknown>): string;
  resultSubject(subject: Subject<unknown, unknown>, replyTo: string): string;
  workerDurable(subject: Subject<unknown, unknown>): string;
  resultsDurable(subject: Subject<unknown, unknown>, replyTo: string): string;
  /**
   * The JetStream dedupe id of a job and of its result. Qualified by subject because the in-process Bus dedupes
   * per subject, and two roles may well use the same id (a trajectory id) for different jobs.
   */
  messageId(subject: Subject<unknown, unknown>, jobId: string): string;
}

const prefixPattern = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
const safeReplyTo = /^[A-Za-z0-9_-]{1,64}$/;

export function natsNames(streamPrefix: string): NatsNames {
  if (!prefixPattern.test(streamPrefix)) {
    throw new TfgrpoError(
      "invalid_config",
      `NATS bus streamPrefix "${streamPrefix}" must be a letter then up to 31 letters, digits, "_" or "-"`,
      { details: { field: "streamPrefix", value: streamPrefix } },
    );
  }
  const root = streamPrefix.toLowerCase();
  // subject.name is tfgrpo.<role>.<operation> (checked by defineSubject): keep <role>.<operation>.
  const tail = (subject: Subject<unknown, unknown>) => subject.name.slice(subject.name.indexOf(".") + 1);
  const checkRole = (subject: Subject<unknown, unknown>) => {
    const role = tail(subject).split(".")[0];
    if (role === "jobs" || role === "results") {
      throw new TfgrpoError(
        "invalid_input",
        `${subject.name}: the roles "jobs" and "results" are reserved for the NATS Bus's JetStream subjects`,
        { details: { subject: subject.name } },
      );
    }
    return tail(subject);
  };
  return {
    root,
    jobsStream: `${streamPrefix}_JOBS`,
    resultsStream: `${streamPrefix}_RESULTS`,
    jobsWildcard: `${root}.jobs.>`,
    resultsWildcard: `${root}.results.>`,
    requestSubject: (subject) => `${root}.${checkRole(subject)}`,
    queueGroup: (subject) => `${root}-${subject.name}`,
    jobSubject: (subject) => `${root}.jobs.${checkRole(subject)}`,
    resultSubject: (subject, replyTo) => `${root}.results.${checkRole(subject)}.${replyToken(replyTo)}`,
    workerDurable: (subject) => `jobs_${checkRole(subject).replaceAll(".", "_")}`,
    resultsDurable: (subject, replyTo) =>
      `results_${checkRole(subject).replaceAll(".", "_")}_${replyToken(replyTo)}`,
    messageId: (subject, jobId) => `${subject.name}:${jobId}`,
  };
}

/**
 * replyTo becomes a subject token and part of a durable consumer name. Ids that are already safe there (letters,
 * digits, "_", "-") are used as they are, so the server's listings stay readable; any other (a run id with dots or
 * spaces) is replaced by a stable hash of itself.
 */
export function replyToken(replyTo: string): string {
  if (replyTo.length === 0) {
    throw new TfgrpoError("invalid_input", "replyTo must not be empty", { details: { field: "replyTo" } });
  }
  if (safeReplyTo.test(replyTo)) return replyTo;
  return `h-${createHash("sha256").update(replyTo).digest("hex").slice(0, 40)}`;
}

/** Job ids travel in a NATS header, which cannot hold line breaks. */
export function checkJobId(subject: Subject<unknown, unknown>, jobId: string, index: number): string {
  if (jobId.length === 0 || jobId.length > 512 || /[\r\n]/.test(jobId)) {
    throw new TfgrpoError(
      "invalid_input",
      `${subject.name} job [${index}]: id must be 1-512 characters without line breaks, got ${JSON.stringify(jobId)}`,
      { details: { subject: subject.name, field: `jobs[${index}].id` } },
    );
  }
  return jobId;
}
