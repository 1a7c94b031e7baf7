import type { RetailDb, RetailOrder, RetailProduct, RetailUser, RetailVariant } from "../retail-db.js";
import { retailToolError } from "./retail-tool-error.js";

// The lookups every tool shares, failing with τ²'s messages.

export function orderOf(db: RetailDb, orderId: string, tool: string): RetailOrder {
  const order = db.orders[orderId];
  if (!order) throw retailToolError("Order not found", tool);
  return order;
}

export function userOf(db: RetailDb, userId: string, tool: string): RetailUser {
  const user = db.users[userId];
  if (!user) throw retailToolError("User not found", tool);
  return user;
}

export function productOf(db: RetailDb, productId: string, tool: string): RetailProduct {
  const product = db.products[productId];
  if (!product) throw retailToolError("Product not found", tool);
  return product;
}

export function variantOf(db: RetailDb, productId: string, itemId: string, tool: string): RetailVariant {
  const variant = productOf(db, productId, tool).variants[itemId];
  if (!variant) throw retailToolError("Variant not found", tool);
  return variant;
}

export function paymentMethodOf(db: RetailDb, userId: string, paymentMethodId: string, tool: string) {
  const method = userOf(db, userId, tool).payment_methods[paymentMethodId];
  if (!method) throw retailToolError("Payment method not found", tool);
  return method;
}

export const isGiftCard = (method: { source: string }) => method.source === "gift_card";

/** Python's round(x, 2) on a balance (balances are sums of two-decimal amounts: no exact halves arise). */
export const round2 = (value: number) => Number(value.toFixed(2));

/** Each listed id at most as often as the order holds it (lists may repeat an item the order holds twice). */
export function countsHeld(order: RetailOrder, itemIds: readonly string[]): string | undefined {
  const held = order.items.map((item) => item.item_id);
  const count = (list: readonly string[], id: string) => list.filter((x) => x === id).length;
  return itemIds.find((id) => count(itemIds, id) > count(held, id));
}
