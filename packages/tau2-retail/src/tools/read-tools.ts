import type { RetailDb } from "../retail-db.js";
import { orderOf, productOf, userOf } from "./retail-lookups.js";
import { retailToolError } from "./retail-tool-error.js";

export function findUserIdByEmail(db: RetailDb, args: { email: string }): string {
  const wanted = args.email.toLowerCase();
  for (const [userId, user] of Object.entries(db.users)) {
    if (user.email.toLowerCase() === wanted) return userId;
  }
  throw retailToolError("User not found", "find_user_id_by_email");
}

export function findUserIdByNameZip(
  db: RetailDb,
  args: { first_name: string; last_name: string; zip: string },
): string {
  const first = args.first_name.toLowerCase();
  const last = args.last_name.toLowerCase();
  for (const [userId, user] of Object.entries(db.users)) {
    if (
      user.name.first_name.toLowerCase() === first &&
      user.name.last_name.toLowerCase() === last &&
      user.address.zip === args.zip
    ) {
      return userId;
    }
  }
  throw retailToolError("User not found", "find_user_id_by_name_zip");
}

export const getOrderDetails = (db: RetailDb, args: { order_id: string }) =>
  orderOf(db, args.order_id, "get_order_details");

export const getProductDetails = (db: RetailDb, args: { product_id: string }) =>
  productOf(db, args.product_id, "get_product_details");

export const getUserDetails = (db: RetailDb, args: { user_id: string }) =>
  userOf(db, args.user_id, "get_user_details");

export function getItemDetails(db: RetailDb, args: { item_id: string }) {
  for (const product of Object.values(db.products)) {
    const variant = product.variants[args.item_id];
    if (variant) return variant;
  }
  throw retailToolError("Item not found", "get_item_details");
}

/** Product names to ids, as JSON with the names sorted (Python's json.dumps(sort_keys=True) spacing). */
export function listAllProductTypes(db: RetailDb): string {
  const byName = new Map<string, string>();
  for (const product of Object.values(db.products)) byName.set(product.name, product.product_id);
  const names = [...byName.keys()].sort();
  return `{${names.map((name) => `${JSON.stringify(name)}: ${JSON.stringify(byName.get(name))}`).join(", ")}}`;
}
