import { createStore, parseStoreUrl, redactUrl } from "@tfgrpo/store";
import type { DoctorCheck, DoctorContext } from "./doctor-check.js";

const install =
  "Debian/Ubuntu: sudo apt-get install postgresql; macOS: brew install postgresql@16 && brew services start postgresql@16";

export const postgresCheck: DoctorCheck = {
  name: "postgresql",
  purpose: "a postgres:// database given with --db",
  required: (context) => context.db !== undefined && parseStoreUrl(context.db).backend === "postgres",
  run: async (context: DoctorContext) => {
    if (context.db === undefined)
      return { status: "skipped", detail: "no --db postgres://... given (SQLite files need no server)" };
    if (parseStoreUrl(context.db).backend !== "postgres")
      return { status: "skipped", detail: `--db ${context.db} is a SQLite file (no server needed)` };
    try {
      const store = await createStore(context.db, { mustExist: true });
      await store.close();
      return { status: "ok", detail: `connected to ${redactUrl(context.db)}` };
    } catch (error) {
      return { status: "missing", detail: (error as Error).message.split("\n")[0] ?? "", install };
    }
  },
};
