import { readFileSync } from "node:fs";
import { TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";

// Loose objects: the database is τ²'s, fields this code does not read must survive a load and a copy unchanged
// (the reward compares whole states).
const addressSchema = z.looseObject({
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  country: z.string(),
  state: z.string(),
  zip: z.string(),
});

const variantSchema = z.looseObject({
  item_id: z.string(),
  options: z.record(z.string(), z.string()),
  available: z.boolean(),
  price: z.number(),
});

const productSchema = z.looseObject({
  name: z.string(),
  product_id: z.string(),
  variants: z.record(z.string(), variantSchema),
});

const paymentMethodSchema = z.looseObject({
  source: z.enum(["gift_card", "paypal", "credit_card"]),
  id: z.string(),
  balance: z.number().optional(),
});

const userSchema = z.looseObject({
  user_id: z.string(),
  name: z.looseObject({ first_name: z.string(), last_name: z.string() }),
  address: addressSchema,
  email: z.string(),
  payment_methods: z.record(z.string(), paymentMethodSchema),
  orders: z.array(z.string()),
});

const orderItemSchema = z.looseObject({
  name: z.string(),
  product_id: z.string(),
  item_id: z.string(),
  price: z.number(),
  options: z.record(z.string(), z.string()),
});

const paymentSchema = z.looseObject({
  transaction_type: z.enum(["payment", "refund"]),
  amount: z.number(),
  payment_method_id: z.string(),
});

const orderSchema = z.looseObject({
  order_id: z.string(),
  user_id: z.string(),
  address: addressSchema,
  items: z.array(orderItemSchema),
  status: z.string(),
  fulfillments: z.array(z.looseObject({ tracking_id: z.array(z.string()), item_ids: z.array(z.string()) })),
  payment_history: z.array(paymentSchema),
  cancel_reason: z.string().optional(),
  exchange_items: z.array(z.string()).optional(),
  exchange_new_items: z.array(z.string()).optional(),
  exchange_payment_method_id: z.string().optional(),
  exchange_price_difference: z.number().optional(),
  return_items: z.array(z.string()).optional(),
  return_payment_method_id: z.string().optional(),
});

export const retailDbSchema = z.looseObject({
  products: z.record(z.string(), productSchema),
  users: z.record(z.string(), userSchema),
  orders: z.record(z.string(), orderSchema),
});

export type RetailDb = z.infer<typeof retailDbSchema>;
export type RetailOrder = z.infer<typeof orderSchema>;
export type RetailUser = z.infer<typeof userSchema>;
export type RetailProduct = z.infer<typeof productSchema>;
export type RetailVariant = z.infer<typeof variantSchema>;
export type RetailAddress = z.infer<typeof addressSchema>;
export type RetailPayment = z.infer<typeof paymentSchema>;

/** Validates a parsed database; the error names the first bad field's path and where the data came from. */
export function parseRetailDb(value: unknown, source: string): RetailDb {
  const parsed = retailDbSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TfgrpoError(
      "invalid_dataset",
      `${source}: not a τ²-bench retail database: ${issue.path.join(".") || "(root)"}: ${issue.message}`,
      { details: { source, path: issue.path.map(String) } },
    );
  }
  return parsed.data;
}

/** Reads τ²-bench retail's db.json (users, orders, products). */
export function loadRetailDb(path: string): RetailDb {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new TfgrpoError(
      "not_found",
      `cannot read the retail database ${path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TfgrpoError("invalid_dataset", `${path}: not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return parseRetailDb(value, path);
}

/**
 * A private copy an attempt may change without touching the loaded original: copy-on-write by record. The maps are
 * the copy's own; the records are shared until a write tool replaces one with its own copy (`writableOrder`,
 * `writableUser`), and products are never written. A deep copy of the 2.8 MB database costs 100+ ms; this, under 1.
 */
export function copyRetailDb(db: RetailDb): RetailDb {
  return { ...db, products: db.products, users: { ...db.users }, orders: { ...db.orders } };
}

/** The order `orderId` of `db` as this copy's own record, safe to change. */
export function writableOrder(db: RetailDb, orderId: string): RetailOrder {
  const order = structuredClone(db.orders[orderId]!);
  db.orders[orderId] = order;
  return order;
}

/** The user `userId` of `db` as this copy's own record (profile, address, payment methods), safe to change. */
export function writableUser(db: RetailDb, userId: string): RetailUser {
  const user = structuredClone(db.users[userId]!);
  db.users[userId] = user;
  return user;
}
