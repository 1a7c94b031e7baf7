import {
  type RetailAddress,
  type RetailDb,
  type RetailOrder,
  type RetailUser,
  writableOrder,
  writableUser,
} from "../retail-db.js";
import {
  countsHeld,
  isGiftCard,
  orderOf,
  paymentMethodOf,
  round2,
  userOf,
  variantOf,
} from "./retail-lookups.js";
import { retailToolError } from "./retail-tool-error.js";

// The write tools, with τ²-bench retail's preconditions, effects and error messages. The reward compares whole
// database states with the gold state reached through these same functions, so an effect here is the benchmark's
// effect, quirks included (each is commented where it is kept on purpose).

const cancelReasons = new Set(["no longer needed", "ordered by mistake"]);

export function cancelPendingOrder(db: RetailDb, args: { order_id: string; reason: string }): RetailOrder {
  const tool = "cancel_pending_order";
  const order = orderOf(db, args.order_id, tool);
  if (order.status !== "pending") throw retailToolError("Non-pending order cannot be cancelled", tool);
  if (!cancelReasons.has(args.reason)) throw retailToolError("Invalid reason", tool);
  const target = writableOrder(db, args.order_id);
  writableUser(db, order.user_id);
  const refunds = target.payment_history.map((payment) => {
    const method = paymentMethodOf(db, order.user_id, payment.payment_method_id, tool);
    // A gift card gets its money back at once; other methods in 5-7 days (outside the database).
    if (isGiftCard(method)) method.balance = round2((method.balance ?? 0) + payment.amount);
    return {
      transaction_type: "refund" as const,
      amount: payment.amount,
      payment_method_id: payment.payment_method_id,
    };
  });
  target.status = "cancelled";
  target.cancel_reason = args.reason;
  target.payment_history.push(...refunds);
  return target;
}

interface SwapArgs {
  order_id: string;
  item_ids: string[];
  new_item_ids: string[];
  payment_method_id: string;
}

/** The price difference of swapping each listed item for the new one at its position (same product, available). */
function swapDifference(db: RetailDb, order: RetailOrder, args: SwapArgs, tool: string) {
  let difference = 0;
  let lastVariant: ReturnType<typeof variantOf> | undefined;
  args.item_ids.forEach((itemId, index) => {
    const newItemId = args.new_item_ids[index]!;
    if (tool === "modify_pending_order_items" && itemId === newItemId) {
      throw retailToolError("The new item id should be different from the old item id", tool);
    }
    const item = order.items.find((candidate) => candidate.item_id === itemId);
    if (!item) throw retailToolError(`Item ${itemId} not found`, tool);
    const variant = variantOf(db, item.product_id, newItemId, tool);
    if (!variant.available) throw retailToolError(`New item ${newItemId} not found or available`, tool);
    difference += variant.price - item.price;
    lastVariant = variant;
  });
  return { difference, lastVariant };
}

export function exchangeDeliveredOrderItems(db: RetailDb, args: SwapArgs): RetailOrder {
  const tool = "exchange_delivered_order_items";
  const order = orderOf(db, args.order_id, tool);
  if (order.status !== "delivered") throw retailToolError("Non-delivered order cannot be exchanged", tool);
  const missing = countsHeld(order, args.item_ids);
  if (missing !== undefined) throw retailToolError(`Number of ${missing} not found.`, tool);
  if (args.item_ids.length !== args.new_item_ids.length) {
    throw retailToolError("The number of items to be exchanged should match.", tool);
  }
  const difference = round2(swapDifference(db, order, args, tool).difference);
  const method = paymentMethodOf(db, order.user_id, args.payment_method_id, tool);
  if (isGiftCard(method) && (method.balance ?? 0) < difference) {
    throw retailToolError("Insufficient gift card balance to pay for the price difference", tool);
  }
  const target = writableOrder(db, args.order_id);
  target.status = "exchange requested";
  target.exchange_items = [...args.item_ids].sort();
  target.exchange_new_items = [...args.new_item_ids].sort();
  target.exchange_payment_method_id = args.payment_method_id;
  target.exchange_price_difference = difference;
  return target;
}

export function modifyPendingOrderItems(db: RetailDb, args: SwapArgs): RetailOrder {
  const tool = "modify_pending_order_items";
  const order = orderOf(db, args.order_id, tool);
  // Strict: an order whose items were modified once ("pending (item modified)") cannot be modified again.
  if (order.status !== "pending") throw retailToolError("Non-pending order cannot be modified", tool);
  const missing = countsHeld(order, args.item_ids);
  if (missing !== undefined) throw retailToolError(`${missing} not found`, tool);
  if (args.item_ids.length !== args.new_item_ids.length) {
    throw retailToolError("The number of items to be exchanged should match", tool);
  }
  // Unrounded, as τ² records it in the payment history.
  const { difference, lastVariant } = swapDifference(db, order, args, tool);
  const method = paymentMethodOf(db, order.user_id, args.payment_method_id, tool);
  if (isGiftCard(method) && (method.balance ?? 0) < difference) {
    throw retailToolError("Insufficient gift card balance to pay for the new item", tool);
  }
  const target = writableOrder(db, args.order_id);
  target.payment_history.push({
    transaction_type: difference > 0 ? "payment" : "refund",
    amount: Math.abs(difference),
    payment_method_id: args.payment_method_id,
  });
  if (isGiftCard(method)) {
    const own = writableUser(db, order.user_id).payment_methods[args.payment_method_id]!;
    own.balance = round2((own.balance ?? 0) - difference);
  }
  args.item_ids.forEach((itemId, index) => {
    const newItemId = args.new_item_ids[index]!;
    // The first item still holding the old id: a repeated id swaps the next copy.
    const item = target.items.find((candidate) => candidate.item_id === itemId)!;
    item.item_id = newItemId;
    // Kept on purpose: τ² gives every modified item the price and options of the LAST new variant it validated
    // (a loop variable that outlives its loop). The gold states carry that effect, so matching them needs it too.
    item.price = lastVariant!.price;
    item.options = { ...lastVariant!.options };
  });
  target.status = "pending (item modified)";
  return target;
}

interface AddressArgs extends RetailAddress {}

const addressFrom = (args: AddressArgs): RetailAddress => ({
  address1: args.address1,
  address2: args.address2,
  city: args.city,
  state: args.state,
  country: args.country,
  zip: args.zip,
});

export function modifyPendingOrderAddress(
  db: RetailDb,
  args: AddressArgs & { order_id: string },
): RetailOrder {
  const tool = "modify_pending_order_address";
  const order = orderOf(db, args.order_id, tool);
  // Loose: any status containing "pending", so an order whose items were modified can still change address.
  if (!order.status.includes("pending")) throw retailToolError("Non-pending order cannot be modified", tool);
  const target = writableOrder(db, args.order_id);
  target.address = addressFrom(args);
  return target;
}

export function modifyPendingOrderPayment(
  db: RetailDb,
  args: { order_id: string; payment_method_id: string },
): RetailOrder {
  const tool = "modify_pending_order_payment";
  const order = orderOf(db, args.order_id, tool);
  if (!order.status.includes("pending")) throw retailToolError("Non-pending order cannot be modified", tool);
  const method = paymentMethodOf(db, order.user_id, args.payment_method_id, tool);
  const first = order.payment_history[0];
  if (order.payment_history.length !== 1 || first?.transaction_type !== "payment") {
    throw retailToolError("There should be exactly one payment for a pending order", tool);
  }
  if (first.payment_method_id === args.payment_method_id) {
    throw retailToolError("The new payment method should be different from the current one", tool);
  }
  const amount = first.amount;
  if (isGiftCard(method) && (method.balance ?? 0) < amount) {
    throw retailToolError("Insufficient gift card balance to pay for the order", tool);
  }
  const target = writableOrder(db, args.order_id);
  target.payment_history.push(
    { transaction_type: "payment", amount, payment_method_id: args.payment_method_id },
    { transaction_type: "refund", amount, payment_method_id: first.payment_method_id },
  );
  const old = paymentMethodOf(db, order.user_id, first.payment_method_id, tool);
  if (isGiftCard(method) || isGiftCard(old)) {
    const methods = writableUser(db, order.user_id).payment_methods;
    if (isGiftCard(method)) methods[args.payment_method_id]!.balance = round2((method.balance ?? 0) - amount);
    if (isGiftCard(old)) {
      const own = methods[first.payment_method_id]!;
      own.balance = round2((own.balance ?? 0) + amount);
    }
  }
  return target;
}

export function modifyUserAddress(db: RetailDb, args: AddressArgs & { user_id: string }): RetailUser {
  userOf(db, args.user_id, "modify_user_address");
  const user = writableUser(db, args.user_id);
  user.address = addressFrom(args);
  return user;
}

export function returnDeliveredOrderItems(
  db: RetailDb,
  args: { order_id: string; item_ids: string[]; payment_method_id: string },
): RetailOrder {
  const tool = "return_delivered_order_items";
  const order = orderOf(db, args.order_id, tool);
  if (order.status !== "delivered") throw retailToolError("Non-delivered order cannot be returned", tool);
  const method = paymentMethodOf(db, order.user_id, args.payment_method_id, tool);
  if (!isGiftCard(method) && args.payment_method_id !== order.payment_history[0]?.payment_method_id) {
    throw retailToolError("Payment method should be the original payment method", tool);
  }
  if (countsHeld(order, args.item_ids) !== undefined) throw retailToolError("Some item not found", tool);
  const target = writableOrder(db, args.order_id);
  target.status = "return requested";
  target.return_items = [...args.item_ids].sort();
  target.return_payment_method_id = args.payment_method_id;
  return target;
}
