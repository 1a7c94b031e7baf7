import { describe, expect, it } from "vitest";
import { copyRetailDb } from "../retail-db.js";
import { realRetailDb, realTau2Task } from "../retail-fixture.test-support.js";
import { retailGoldOf, toRetailTask } from "../retail-task.js";
import { canonicalJson } from "../reward/canonical-json.js";
import { replayGold } from "../reward/gold-state.js";
import { calculate } from "./calculate.js";
import { callRetailTool } from "./call-retail-tool.js";

const goldOf = (id: string) => retailGoldOf(toRetailTask(realTau2Task(id)));

describe("retail tools on the real database", () => {
  it("task 0's gold exchange requests the two items' exchange and records the price difference", () => {
    const { state, refused } = replayGold(realRetailDb(), goldOf("0").actions);
    expect(refused).toEqual([]);
    const order = state.orders["#W2378156"]!;
    expect(order.status).toBe("exchange requested");
    expect(order.exchange_items).toEqual(["1151293680", "4983901480"]);
    expect(order.exchange_new_items).toEqual(["7706410293", "7747408585"]);
    expect(order.exchange_payment_method_id).toBe("credit_card_9513926");
    const before = realRetailDb().orders["#W2378156"]!;
    const price = (db: typeof state, product: string, item: string) =>
      db.products[product]!.variants[item]!.price;
    const oldPrices = before.items
      .filter((item) => ["1151293680", "4983901480"].includes(item.item_id))
      .reduce((sum, item) => sum + item.price, 0);
    const newPrices = price(state, "1656367028", "7706410293") + price(state, "4896585277", "7747408585");
    expect(order.exchange_price_difference).toBeCloseTo(newPrices - oldPrices, 2);
    // The loaded original is untouched.
    expect(before.status).toBe("delivered");
  });

  it("task 16's gold cancels two pending orders (refunds in the history, reason kept) and returns one", () => {
    const gold = goldOf("16");
    const { state, refused } = replayGold(realRetailDb(), gold.actions);
    expect(refused).toEqual([]);
    for (const action of gold.actions.filter((a) => a.name === "cancel_pending_order")) {
      const order = state.orders[action.arguments.order_id as string]!;
      expect(order.status).toBe("cancelled");
      expect(order.cancel_reason).toBe(action.arguments.reason);
      const payments = order.payment_history.filter((p) => p.transaction_type === "payment");
      const refunds = order.payment_history.filter((p) => p.transaction_type === "refund");
      expect(refunds.map((r) => r.amount)).toEqual(payments.map((p) => p.amount));
    }
    const ret = gold.actions.find((a) => a.name === "return_delivered_order_items")!;
    expect(state.orders[ret.arguments.order_id as string]!.status).toBe("return requested");
  });

  it("a gift-card refund lands in its balance at once", () => {
    const db = copyRetailDb(realRetailDb());
    const [orderId, order] = Object.entries(db.orders).find(
      ([, o]) =>
        o.status === "pending" &&
        o.payment_history.length === 1 &&
        o.payment_history[0]!.payment_method_id.startsWith("gift_card"),
    )!;
    const method = db.users[order.user_id]!.payment_methods[order.payment_history[0]!.payment_method_id]!;
    const balance = method.balance!;
    const outcome = callRetailTool(db, "cancel_pending_order", {
      order_id: orderId,
      reason: "ordered by mistake",
    });
    expect(outcome.ok).toBe(true);
    // Read again: a write replaces the record with the copy's own (copy-on-write), the original stays as it was.
    const after = db.users[order.user_id]!.payment_methods[order.payment_history[0]!.payment_method_id]!;
    expect(after.balance).toBeCloseTo(balance + order.payment_history[0]!.amount, 2);
    expect(method.balance).toBe(balance);
    expect(realRetailDb().orders[orderId]!.status).toBe("pending");
  });

  it("modify items is callable once: the order becomes 'pending (item modified)' and a second call is refused", () => {
    const { state, refused } = replayGold(realRetailDb(), goldOf("15").actions);
    expect(refused).toEqual([]);
    const action = goldOf("15").actions.find((a) => a.name === "modify_pending_order_items")!;
    const orderId = action.arguments.order_id as string;
    expect(state.orders[orderId]!.status).toBe("pending (item modified)");
    const again = callRetailTool(state, "modify_pending_order_items", action.arguments);
    expect(again).toEqual({ ok: false, text: "Error: Non-pending order cannot be modified" });
    // The address can still change (a loose "pending" check, as τ²).
    const address = {
      address1: "1 A St",
      address2: "",
      city: "X",
      state: "CA",
      country: "USA",
      zip: "00001",
    };
    expect(callRetailTool(state, "modify_pending_order_address", { order_id: orderId, ...address }).ok).toBe(
      true,
    );
  });

  it("refuses what τ² refuses, with its messages, and leaves the database unchanged", () => {
    const db = copyRetailDb(realRetailDb());
    const before = canonicalJson(db);
    const delivered = Object.values(db.orders).find((o) => o.status === "delivered")!;
    const pending = Object.values(db.orders).find((o) => o.status === "pending")!;
    const cases: [string, Record<string, unknown>, string][] = [
      [
        "cancel_pending_order",
        { order_id: delivered.order_id, reason: "no longer needed" },
        "Non-pending order cannot be cancelled",
      ],
      ["cancel_pending_order", { order_id: pending.order_id, reason: "found it cheaper" }, "Invalid reason"],
      ["cancel_pending_order", { order_id: "W0000000", reason: "no longer needed" }, "Order not found"],
      [
        "return_delivered_order_items",
        { order_id: pending.order_id, item_ids: [pending.items[0]!.item_id], payment_method_id: "x" },
        "Non-delivered order cannot be returned",
      ],
      [
        "exchange_delivered_order_items",
        {
          order_id: delivered.order_id,
          item_ids: [delivered.items[0]!.item_id],
          new_item_ids: [delivered.items[0]!.product_id],
          payment_method_id: delivered.payment_history[0]!.payment_method_id,
        },
        "Variant not found",
      ],
      ["get_product_details", { product_id: delivered.items[0]!.item_id }, "Product not found"],
      ["find_user_id_by_email", { email: "nobody@example.com" }, "User not found"],
    ];
    for (const [name, args, message] of cases) {
      expect(callRetailTool(db, name, args), name).toEqual({ ok: false, text: `Error: ${message}` });
    }
    expect(canonicalJson(db)).toBe(before);
  });

  it("a return must refund to the original method or a gift card", () => {
    const db = copyRetailDb(realRetailDb());
    const order = Object.values(db.orders).find((o) => {
      if (o.status !== "delivered") return false;
      const methods = Object.keys(db.users[o.user_id]!.payment_methods);
      return methods.some((m) => !m.startsWith("gift_card") && m !== o.payment_history[0]!.payment_method_id);
    })!;
    const other = Object.keys(db.users[order.user_id]!.payment_methods).find(
      (m) => !m.startsWith("gift_card") && m !== order.payment_history[0]!.payment_method_id,
    )!;
    const args = { order_id: order.order_id, item_ids: [order.items[0]!.item_id] };
    expect(callRetailTool(db, "return_delivered_order_items", { ...args, payment_method_id: other })).toEqual(
      {
        ok: false,
        text: "Error: Payment method should be the original payment method",
      },
    );
    const original = order.payment_history[0]!.payment_method_id;
    expect(
      callRetailTool(db, "return_delivered_order_items", { ...args, payment_method_id: original }).ok,
    ).toBe(true);
  });

  it("lookups: name and zip or email, case-insensitively; item ids are not product ids", () => {
    const db = realRetailDb();
    expect(
      callRetailTool(db, "find_user_id_by_name_zip", {
        first_name: "yusuf",
        last_name: "ROSSI",
        zip: "19122",
      }),
    ).toEqual({
      ok: true,
      text: "yusuf_rossi_9620",
    });
    const user = db.users.yusuf_rossi_9620!;
    expect(callRetailTool(db, "find_user_id_by_email", { email: user.email.toUpperCase() }).text).toBe(
      "yusuf_rossi_9620",
    );
    const types = JSON.parse(callRetailTool(db, "list_all_product_types", {}).text) as Record<string, string>;
    expect(Object.keys(types)).toHaveLength(50);
    expect(Object.keys(types)).toEqual([...Object.keys(types)].sort());
    const item = callRetailTool(db, "get_item_details", { item_id: "1151293680" });
    expect(JSON.parse(item.text).item_id).toBe("1151293680");
    expect(callRetailTool(db, "nope", {}).text).toBe("Error: Tool 'nope' not found.");
    expect(callRetailTool(db, "get_order_details", { id: "#W1" }).text).toMatch(
      /^Error: get_order_details: argument order_id/,
    );
  });
});

describe("calculate", () => {
  it("prints as Python does and rounds to 2 decimals", () => {
    expect(calculate("2 + 2")).toBe("4.0");
    expect(calculate("(54.04 + 41.64) / 2")).toBe("47.84");
    expect(calculate("10 / 3")).toBe("3.33");
    expect(calculate("-2 ** 2")).toBe("-4.0");
    expect(calculate("7 // 2")).toBe("3.0");
    expect(calculate("0.125")).toBe("0.12");
    expect(() => calculate("2 + x")).toThrow("Invalid characters in expression");
    expect(() => calculate("1 / 0")).toThrow("division by zero");
    expect(() => calculate("(1 + 2")).toThrow("invalid syntax");
  });
});
