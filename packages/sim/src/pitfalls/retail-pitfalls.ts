import type { Pitfall } from "./pitfall.js";

// What the policy knows of each trap of the retail world (notions of policy/retail-lexicon.ts). Each applies to a
// task only when its gold calls have the feature the trap is about (policy/retail-agent.ts).

const retail = (id: string, title: string, reading: Pitfall["reading"]): Pitfall => ({
  id,
  domain: "retail",
  title,
  reading,
});

export const authenticateFirst = retail(
  "authenticate-first",
  "acting before locating the customer's user id",
  {
    topic: ["AUTH", "FINDUSER"],
    context: ["USERID", "customer", "user", "order"],
    helpful: ["AUTH", "FINDUSER", "CHECK AUTH", "AUTH customer", "AUTH user", "EXCLUDE GUESS", "?AUTH"],
    harmful: [
      "SKIPPING AUTH",
      "SKIPPING FINDUSER",
      "GUESS USERID",
      "GUESS",
      "USE GUESS",
      "SKIPPING CHECK AUTH",
    ],
  },
);

export const checkOrderStatus = retail(
  "check-order-status",
  "choosing cancel/modify/return/exchange without the status",
  {
    topic: ["STATUS", "ACTIONKIND"],
    context: ["order", "pending", "delivered", "modify", "exchange", "cancel"],
    helpful: [
      "CHECK STATUS",
      "CHECK order STATUS",
      "ACTIONKIND",
      "CHECK ACTIONKIND",
      "USE exchange delivered",
      "?STATUS",
    ],
    harmful: [
      "SKIPPING STATUS",
      "SKIPPING CHECK STATUS",
      "?REGARDLESS",
      "USE modify any",
      "cancel every order",
    ],
  },
);

export const collectAllItems = retail(
  "collect-all-items",
  "splitting one order's items over several exchange/modify calls",
  {
    topic: ["ONECALL", "SPLITCALLS"],
    context: ["item", "exchange", "modify", "order"],
    helpful: ["ONECALL", "USE ONECALL", "CHECK ONECALL", "EXCLUDE SPLITCALLS", "?ONECALL"],
    harmful: ["SPLITCALLS", "USE SPLITCALLS", "?SPLITCALLS"],
  },
);

export const itemVersusProductId = retail(
  "item-vs-product-id",
  "passing product ids where item ids are needed",
  {
    topic: ["ITEMID", "PRODUCTID"],
    context: ["exchange", "variant", "new item", "modify"],
    helpful: ["USE ITEMID", "ITEMID", "EXCLUDE PRODUCTID", "CHECK ITEMID", "?ITEMID"],
    harmful: ["USE PRODUCTID", "PRODUCTID INTERCHANGE", "PRODUCTID works", "?PRODUCTID"],
  },
);

export const refundDestination = retail(
  "refund-destination",
  "sending a refund or price difference to another method",
  {
    topic: ["REFUND", "ORIGINALPAY", "OTHERPAY"],
    context: ["payment", "card", "gift card", "REFUND"],
    helpful: [
      "USE ORIGINALPAY",
      "ORIGINALPAY",
      "REFUND ORIGINALPAY",
      "EXCLUDE OTHERPAY",
      "CHECK ORIGINALPAY",
    ],
    harmful: ["USE OTHERPAY", "OTHERPAY", "REFUND OTHERPAY", "?OTHERPAY"],
  },
);

export const cancelReason = retail(
  "cancel-reason",
  "a cancellation reason other than the two the tool accepts",
  {
    topic: ["REASON"],
    context: ["cancel", "cancellation"],
    helpful: [
      "USE ALLOWEDREASON",
      "ALLOWEDREASON",
      "EXCLUDE VERBATIM",
      "CHECK ALLOWEDREASON",
      "?ALLOWEDREASON",
    ],
    harmful: ["USE VERBATIM", "VERBATIM", "?VERBATIM"],
  },
);

export const otherLookup = retail("other-lookup", "giving up when one user lookup finds nobody", {
  topic: ["NOTFOUND", "OTHERLOOKUP"],
  context: ["lookup", "email", "zip", "user"],
  helpful: ["OTHERLOOKUP", "USE OTHERLOOKUP", "EXCLUDE GIVEUP", "?OTHERLOOKUP"],
  harmful: ["GIVEUP", "USE GIVEUP", "?GIVEUP", "SKIPPING OTHERLOOKUP"],
});

export const transferScope = retail("transfer-scope", "transferring an in-scope request to a human", {
  topic: ["TRANSFER"],
  context: ["human", "request", "COMPLEX", "INSCOPE"],
  helpful: ["EXCLUDE TRANSFER", "TRANSFER INSCOPE", "INSCOPE", "?INSCOPE", "TRANSFER OUTSCOPE", "?OUTSCOPE"],
  harmful: ["TRANSFER COMPLEX", "USE TRANSFER", "?TRANSFER"],
});

export const exactFigures = retail("exact-figures", "telling the customer rounded or no figures", {
  topic: ["FIGURE", "FIGEXACT", "FIGROUND"],
  context: ["customer", "tell", "report", "refund"],
  helpful: ["FIGEXACT", "USE FIGEXACT", "EXCLUDE FIGROUND", "?FIGEXACT"],
  harmful: ["FIGROUND", "USE FIGROUND", "?FIGROUND"],
});

export const retailPitfalls: readonly Pitfall[] = [
  authenticateFirst,
  checkOrderStatus,
  collectAllItems,
  itemVersusProductId,
  refundDestination,
  cancelReason,
  otherLookup,
  transferScope,
  exactFigures,
];
