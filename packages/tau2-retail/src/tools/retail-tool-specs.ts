import { z } from "zod";
import type { RetailDb } from "../retail-db.js";
import { calculate } from "./calculate.js";
import {
  findUserIdByEmail,
  findUserIdByNameZip,
  getItemDetails,
  getOrderDetails,
  getProductDetails,
  getUserDetails,
  listAllProductTypes,
} from "./read-tools.js";
import {
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
} from "./write-tools.js";

export type RetailToolKind = "read" | "write" | "generic";

export interface RetailToolSpec {
  name: string;
  description: string;
  /** The arguments (a zod object: the MCP server publishes it as the tool's JSON Schema). */
  input: z.ZodObject;
  kind: RetailToolKind;
  run(db: RetailDb, args: never): unknown;
}

const orderId = z.string().describe("The order id, such as '#W0000000' (it starts with '#').");
const userId = z.string().describe("The user id, such as 'sara_doe_496'.");
const itemIds = (what: string) =>
  z
    .array(z.string())
    .describe(
      `The item ids ${what}, each such as '1008292230'; an id may repeat if the order holds it twice.`,
    );
const paymentMethodId = z
  .string()
  .describe("A payment method id of the user, such as 'gift_card_0000000' or 'credit_card_0000000'.");
const address = {
  address1: z.string().describe("First address line, such as '123 Main St'."),
  address2: z.string().describe("Second address line, such as 'Apt 1' or ''."),
  city: z.string().describe("The city, such as 'San Francisco'."),
  state: z.string().describe("The state, such as 'CA'."),
  country: z.string().describe("The country, such as 'USA'."),
  zip: z.string().describe("The zip code, such as '12345'."),
};
const confirm = "Explain the details to the user and get an explicit yes before calling it.";

const spec = <S extends z.ZodRawShape>(
  name: string,
  kind: RetailToolKind,
  description: string,
  shape: S,
  run: (db: RetailDb, args: z.infer<z.ZodObject<S>>) => unknown,
): RetailToolSpec => ({ name, kind, description, input: z.object(shape), run: run as RetailToolSpec["run"] });

/** τ²-bench retail's agent tools, in its order; the descriptions state what each does and refuses. */
export const retailToolSpecs: readonly RetailToolSpec[] = [
  spec(
    "calculate",
    "generic",
    "Calculate a mathematical expression (numbers, + - * /, parentheses and spaces); the result is rounded to 2 decimals.",
    { expression: z.string().describe("The expression, such as '2 + 2'.") },
    (_db, args) => calculate(args.expression),
  ),
  spec(
    "cancel_pending_order",
    "write",
    "Cancel a pending order (not a processed or delivered one). The reason must be 'no longer needed' or " +
      "'ordered by mistake'. Every payment is refunded: to a gift card's balance at once, otherwise in 5-7 " +
      `business days. ${confirm}`,
    { order_id: orderId, reason: z.string().describe("'no longer needed' or 'ordered by mistake'.") },
    cancelPendingOrder,
  ),
  spec(
    "exchange_delivered_order_items",
    "write",
    "Exchange items of a delivered order for other available items of the same product. Can be done once per " +
      "order: collect every item to exchange into this one call. The payment method pays or receives the price " +
      `difference (a gift card must cover it). ${confirm}`,
    {
      order_id: orderId,
      item_ids: itemIds("to exchange"),
      new_item_ids: itemIds("to exchange them for, position by position, of the same product"),
      payment_method_id: paymentMethodId,
    },
    exchangeDeliveredOrderItems,
  ),
  spec(
    "find_user_id_by_name_zip",
    "read",
    "Find a user id by first name, last name and zip code. Use it when the user cannot give an email or the " +
      "email finds no one.",
    {
      first_name: z.string().describe("First name, such as 'John'."),
      last_name: z.string().describe("Last name, such as 'Doe'."),
      zip: z.string().describe("Zip code, such as '12345'."),
    },
    findUserIdByNameZip,
  ),
  spec(
    "find_user_id_by_email",
    "read",
    "Find a user id by email.",
    { email: z.string().describe("The email, such as 'something@example.com'.") },
    findUserIdByEmail,
  ),
  spec(
    "get_order_details",
    "read",
    "Get the status and details of an order.",
    { order_id: orderId },
    getOrderDetails,
  ),
  spec(
    "get_product_details",
    "read",
    "Get a product's inventory: its variant items with their options, availability and price. A product id is " +
      "not an item id.",
    { product_id: z.string().describe("The product id, such as '6086499569' (not an item id).") },
    getProductDetails,
  ),
  spec(
    "get_item_details",
    "read",
    "Get one variant item's details. An item id is not a product id.",
    { item_id: z.string().describe("The item id, such as '6086499569' (not a product id).") },
    getItemDetails,
  ),
  spec(
    "get_user_details",
    "read",
    "Get a user's details: profile, default address, payment methods and orders.",
    { user_id: userId },
    getUserDetails,
  ),
  spec(
    "list_all_product_types",
    "read",
    "List the name and product id of each of the store's 50 product types (JSON, sorted by name).",
    {},
    (db) => listAllProductTypes(db),
  ),
  spec(
    "modify_pending_order_address",
    "write",
    `Change the shipping address of a pending order. ${confirm}`,
    { order_id: orderId, ...address },
    modifyPendingOrderAddress,
  ),
  spec(
    "modify_pending_order_items",
    "write",
    "Modify items of a pending order to other available items of the same product. Can be called once per " +
      "order (it becomes 'pending (item modified)' and can no longer be modified or cancelled): collect every " +
      "item first. The payment method pays or receives the price difference (a gift card must cover it). " +
      confirm,
    {
      order_id: orderId,
      item_ids: itemIds("to modify"),
      new_item_ids: itemIds("to modify them to, position by position, of the same product"),
      payment_method_id: paymentMethodId,
    },
    modifyPendingOrderItems,
  ),
  spec(
    "modify_pending_order_payment",
    "write",
    "Pay a pending order with another single payment method (a gift card must cover the total); the original " +
      `one is refunded. ${confirm}`,
    { order_id: orderId, payment_method_id: paymentMethodId },
    modifyPendingOrderPayment,
  ),
  spec(
    "modify_user_address",
    "write",
    `Change a user's default address. ${confirm}`,
    { user_id: userId, ...address },
    modifyUserAddress,
  ),
  spec(
    "return_delivered_order_items",
    "write",
    "Request the return of items of a delivered order (once per order); the order becomes 'return requested'. " +
      "The refund goes to the original payment method or an existing gift card. " +
      confirm,
    { order_id: orderId, item_ids: itemIds("to return"), payment_method_id: paymentMethodId },
    returnDeliveredOrderItems,
  ),
  spec(
    "transfer_to_human_agents",
    "generic",
    "Transfer the user to a human agent with a summary of the issue: only when the user asks for one or the " +
      "request is outside what the policy and these tools can do.",
    { summary: z.string().describe("A summary of the user's issue.") },
    () => "Transfer successful",
  ),
];

export const retailToolNames: readonly string[] = retailToolSpecs.map((tool) => tool.name);
