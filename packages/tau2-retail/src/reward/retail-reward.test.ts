import { describe, expect, it } from "vitest";
import { copyRetailDb } from "../retail-db.js";
import { realRetailDb, realTau2Task } from "../retail-fixture.test-support.js";
import { retailGoldOf, toRetailTask } from "../retail-task.js";
import { callRetailTool } from "../tools/call-retail-tool.js";
import { applyStateChanges, type StateChange } from "./apply-state-changes.js";
import { stateHash } from "./canonical-json.js";
import { replayGold } from "./gold-state.js";
import { communicated, createRetailReward } from "./retail-reward.js";
import { createRetailTrajectoryReward } from "./trajectory-reward.js";

const reward = createRetailReward();

/** An attempt: the calls it made on its own copy, and what it told the user. */
function attempt(calls: { name: string; arguments: Record<string, unknown> }[]) {
  const db = copyRetailDb(realRetailDb());
  for (const call of calls) callRetailTool(db, call.name, call.arguments);
  return db;
}

describe("the τ² reward rule on real tasks", () => {
  it("task 19: the gold calls and both amounts told earn 1; a missing amount or a wrong refund method earn 0", () => {
    const gold = retailGoldOf(toRetailTask(realTau2Task("19")));
    expect(gold.communicate_info).toEqual(["54.04", "41.64"]);
    const final = attempt(gold.actions);
    const told = ["Your refund of $54.04 is on its way.", "The other item refunds $41.64."];
    expect(reward({ initial: realRetailDb(), gold, final, agentMessages: told })).toMatchObject({
      reward: 1,
      dbMatch: true,
      missingInfo: [],
    });
    expect(reward({ initial: realRetailDb(), gold, final, agentMessages: told.slice(0, 1) })).toMatchObject({
      reward: 0,
      dbMatch: true,
      missingInfo: ["41.64"],
    });
    // Broken: the return goes to a gift card instead of the method the gold uses.
    const ret = gold.actions.find((a) => a.name === "return_delivered_order_items")!;
    const user = realRetailDb().orders[ret.arguments.order_id as string]!.user_id;
    const giftCard = Object.keys(realRetailDb().users[user]!.payment_methods).find(
      (id) => id.startsWith("gift_card") && id !== ret.arguments.payment_method_id,
    );
    const brokenCalls = gold.actions.map((a) =>
      a === ret && giftCard ? { ...a, arguments: { ...a.arguments, payment_method_id: giftCard } } : a,
    );
    const broken = giftCard ? attempt(brokenCalls) : attempt(gold.actions.filter((a) => a !== ret)); // no gift card: the return is simply missing
    expect(reward({ initial: realRetailDb(), gold, final: broken, agentMessages: told })).toMatchObject({
      reward: 0,
      dbMatch: false,
    });
  });

  it("task 0: only the write decides; extra reads never change the reward, a partial exchange does", () => {
    const gold = retailGoldOf(toRetailTask(realTau2Task("0")));
    const reads = [
      { name: "list_all_product_types", arguments: {} },
      { name: "get_user_details", arguments: { user_id: "yusuf_rossi_9620" } },
    ];
    const withReads = attempt([...reads, ...gold.actions]);
    expect(reward({ initial: realRetailDb(), gold, final: withReads, agentMessages: [] }).reward).toBe(1);
    const exchange = gold.actions.find((a) => a.name === "exchange_delivered_order_items")!;
    const partial = attempt([
      {
        name: exchange.name,
        arguments: {
          ...exchange.arguments,
          item_ids: (exchange.arguments.item_ids as string[]).slice(0, 1),
          new_item_ids: (exchange.arguments.new_item_ids as string[]).slice(0, 1),
        },
      },
    ]);
    expect(reward({ initial: realRetailDb(), gold, final: partial, agentMessages: [] }).reward).toBe(0);
    // Doing nothing is no match either.
    expect(reward({ initial: realRetailDb(), gold, final: realRetailDb(), agentMessages: [] }).dbMatch).toBe(
      false,
    );
  });

  it("a task whose gold only reads is matched by the untouched database", () => {
    const gold = retailGoldOf(toRetailTask(realTau2Task("10")));
    expect(replayGold(realRetailDb(), gold.actions).refused).toEqual([]);
    const result = reward({ initial: realRetailDb(), gold, final: realRetailDb(), agentMessages: [] });
    expect(result.dbMatch).toBe(true);
  });

  it("communicated facts: case-folded, commas in the message ignored", () => {
    expect(communicated("8276.23", ["The total refund is $8,276.23."])).toBe(true);
    expect(communicated("Mastercard", ["paid with your MASTERCARD"])).toBe(true);
    expect(communicated("481.50", ["it costs 481.5"])).toBe(false);
  });
});

describe("the rule over a trajectory", () => {
  // The same diff tfgrpo's trajectories store (objects key by key, arrays index by index), written here so the
  // test does not depend on the actor package.
  const diff = (before: unknown, after: unknown, path = ""): StateChange[] => {
    const isObject = (v: unknown): v is Record<string, unknown> =>
      typeof v === "object" && v !== null && !Array.isArray(v);
    if (isObject(before) && isObject(after)) {
      return [...new Set([...Object.keys(before), ...Object.keys(after)])].sort().flatMap((key) => {
        const here = `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        if (!(key in after)) return [{ path: here, op: "remove" as const, before: before[key] }];
        if (!(key in before)) return [{ path: here, op: "add" as const, after: after[key] }];
        return diff(before[key], after[key], here);
      });
    }
    if (Array.isArray(before) && Array.isArray(after)) {
      const out: StateChange[] = [];
      const shared = Math.min(before.length, after.length);
      for (let i = 0; i < shared; i++) out.push(...diff(before[i], after[i], `${path}/${i}`));
      for (let i = shared; i < after.length; i++)
        out.push({ path: `${path}/${i}`, op: "add", after: after[i] });
      for (let i = before.length - 1; i >= shared; i--)
        out.push({ path: `${path}/${i}`, op: "remove", before: before[i] });
      return out;
    }
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, op: "replace", before, after }];
  };

  it("rebuilds the final database from the stored diff when the state itself was too large to keep", () => {
    const task = toRetailTask(realTau2Task("16"));
    const gold = retailGoldOf(task);
    const final = attempt(gold.actions);
    const changes = diff(realRetailDb(), final);
    expect(changes.length).toBeGreaterThan(3);
    expect(stateHash(applyStateChanges(realRetailDb(), changes))).toBe(stateHash(final));
    const rule = createRetailTrajectoryReward(realRetailDb());
    const told = { role: "assistant", content: "Your total refund is $8,276.23." };
    expect(rule(task, null, { messages: [told], environment: { diff: changes } })).toMatchObject({
      reward: 1,
    });
    expect(rule(task, null, { messages: [], environment: { diff: changes } })).toEqual({
      reward: 0,
      reason: "not told: 8276.23",
    });
    expect(rule(task, null, { messages: [told], environment: { diff: changes.slice(1) } }).reward).toBe(0);
    expect(rule(task, null, { messages: [told] }).reason).toMatch(/no environment record/);
  });
});
