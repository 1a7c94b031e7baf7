import { actorRollout, defineSubject, TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { natsNames, replyToken } from "./nats-names.js";

describe("natsNames", () => {
  it("keeps a safe replyTo readable and hashes any other into a stable, safe token", () => {
    expect(replyToken("run_2024-01-01")).toBe("run_2024-01-01");
    const hashed = replyToken("run 7.resumed");
    expect(hashed).toMatch(/^h-[0-9a-f]{40}$/);
    expect(replyToken("run 7.resumed")).toBe(hashed);
    expect(replyToken("run 7.resumed!")).not.toBe(hashed);
    expect(natsNames("TFGRPO").resultSubject(actorRollout, "run 7.resumed")).toBe(
      `tfgrpo.results.actor.rollout.${hashed}`,
    );
  });

  it("uses the Bus subject names as they are with the default prefix", () => {
    const names = natsNames("TFGRPO");
    expect(names.requestSubject(actorRollout)).toBe("tfgrpo.actor.rollout");
    expect(names.queueGroup(actorRollout)).toBe("tfgrpo-tfgrpo.actor.rollout");
    expect(names.jobSubject(actorRollout)).toBe("tfgrpo.jobs.actor.rollout");
    expect(names.resultSubject(actorRollout, "run-7")).toBe("tfgrpo.results.actor.rollout.run-7");
    expect(names.workerDurable(actorRollout)).toBe("jobs_actor_rollout");
    expect(names.resultsDurable(actorRollout, "run-7")).toBe("results_actor_rollout_run-7");
    expect(names.messageId(actorRollout, "t1")).toBe("tfgrpo.actor.rollout:t1");
    expect([names.jobsStream, names.resultsStream]).toEqual(["TFGRPO_JOBS", "TFGRPO_RESULTS"]);
  });

  it("moves every subject under another prefix", () => {
    const names = natsNames("Staging");
    expect(names.requestSubject(actorRollout)).toBe("staging.actor.rollout");
    expect(names.jobsWildcard).toBe("staging.jobs.>");
    expect(names.jobsStream).toBe("Staging_JOBS");
  });

  it("rejects prefixes and roles that cannot be NATS names", () => {
    expect(() => natsNames("has.dot")).toThrow(/streamPrefix "has.dot"/);
    expect(() => replyToken("")).toThrow(TfgrpoError);
    const reserved = defineSubject("tfgrpo.jobs.list", z.object({}), z.object({}));
    expect(() => natsNames("TFGRPO").jobSubject(reserved)).toThrow(/reserved/);
  });
});
