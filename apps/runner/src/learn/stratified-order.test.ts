import type { Task } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { batchWithFailures, resolveStratifyField, stratifiedOrder, taskField } from "./stratified-order.js";

const task = (id: string, family?: string): Task => ({
  id,
  domain: "math",
  question: `question ${id}`,
  answer: "1",
  ...(family ? { meta: { family } } : {}),
});
// 30 of family a, 20 of b, 10 of c, listed family by family (a plain slice would be all "a").
const tasks = [
  ...Array.from({ length: 30 }, (_, i) => task(`a${i}`, "a")),
  ...Array.from({ length: 20 }, (_, i) => task(`b${i}`, "b")),
  ...Array.from({ length: 10 }, (_, i) => task(`c${i}`, "c")),
];
const familyOf = (id: string) => id[0]!;

describe("stratifiedOrder", () => {
  it("holds each stratum in its share in every batch, within one task, and visits every task once", () => {
    const order = stratifiedOrder(tasks, "meta.family", 7);
    expect([...order].sort()).toEqual(tasks.map((t) => t.id).sort());
    for (let start = 0; start < order.length; start += 12) {
      const batch = order.slice(start, start + 12);
      const count = (family: string) => batch.filter((id) => familyOf(id) === family).length;
      expect(Math.abs(count("a") - 6)).toBeLessThanOrEqual(1);
      expect(Math.abs(count("b") - 4)).toBeLessThanOrEqual(1);
      expect(Math.abs(count("c") - 2)).toBeLessThanOrEqual(1);
    }
  });

  it("is deterministic given the seed, and shuffles inside strata by it", () => {
    expect(stratifiedOrder(tasks, "meta.family", 7)).toEqual(stratifiedOrder(tasks, "meta.family", 7));
    expect(stratifiedOrder(tasks, "meta.family", 8)).not.toEqual(stratifiedOrder(tasks, "meta.family", 7));
    const plain = stratifiedOrder(tasks, null, 7);
    expect([...plain].sort()).toEqual(tasks.map((t) => t.id).sort());
  });
});

describe("batchWithFailures", () => {
  const slice = ["a1", "a2", "b1", "a3", "c1", "b2", "a4", "b3", "a5", "c2"];
  it("gives the share to earlier failures outside the slice, drawn with the seed", () => {
    const batch = batchWithFailures(slice, ["a1", "x1", "x2", "x3", "x4"], 0.2, 3);
    expect(batch).toHaveLength(10);
    expect(batch.slice(0, 8)).toEqual(slice.slice(0, 8));
    expect(batch.slice(8).every((id) => id.startsWith("x"))).toBe(true);
    expect(batchWithFailures(slice, ["x4", "x3", "x2", "x1", "a1"], 0.2, 3)).toEqual(batch);
    expect(new Set(batch).size).toBe(10);
  });

  it("takes fewer when fewer failures are left, none at share 0", () => {
    expect(batchWithFailures(slice, ["a1", "x1"], 0.5, 3)).toEqual([...slice.slice(0, 9), "x1"]);
    expect(batchWithFailures(slice, ["x1", "x2"], 0, 3)).toEqual(slice);
  });
});

describe("resolveStratifyField", () => {
  it("defaults to the family when tasks carry it, else to no stratification", () => {
    expect(resolveStratifyField(tasks, undefined)).toBe("meta.family");
    expect(resolveStratifyField([task("t1"), task("t2")], undefined)).toBeNull();
    expect(resolveStratifyField(tasks, "none")).toBeNull();
    expect(resolveStratifyField(tasks, "domain")).toBe("domain");
    expect(taskField(tasks[0]!, "meta.family")).toBe("a");
  });

  it("names the field when no task has it", () => {
    expect(() => resolveStratifyField(tasks, "meta.difficulty")).toThrow(/meta\.difficulty/);
    expect(() => resolveStratifyField(tasks, "meta.difficulty")).toThrow(/no training task has the field/);
  });
});
