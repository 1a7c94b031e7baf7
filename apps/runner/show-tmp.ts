import { entryContrast, formatContrast } from "@tfgrpo/protocol";
import { createStore } from "@tfgrpo/store";

const store = await createStore(process.argv[2]!);
const head = (await store.getHead("math"))!;
console.log("head v" + head.version);
for (const e of head.experiences) {
  console.log(
    e.id.padEnd(4),
    e.status.padEnd(10),
    formatContrast(entryContrast(e.stats)).padEnd(44),
    "shown",
    e.stats.shown,
    "|",
    e.text.slice(0, 70),
  );
}
await store.close();
