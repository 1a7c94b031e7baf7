import { type LibrarySnapshot, TfgrpoError } from "@tfgrpo/protocol";
import type { LibraryStore } from "@tfgrpo/store";
import type { LibraryUnderTest } from "./evaluate-libraries.js";
import { entriesAsLibrary, liveEntries, placeboKindNames, placeboOf } from "./placebo-libraries.js";
import type { EvaluatedLibrary } from "./run-evaluation.js";
import type { ControlInfo } from "./summarize-evaluation.js";
import { otherVendoredLibrary, readVendoredLibrary } from "./vendored-libraries.js";

/** A placebo library ready to evaluate: its row, and the snapshot the runtime must serve for it. */
export interface ControlLibrary {
  library: EvaluatedLibrary & { control: ControlInfo };
  snapshot: LibrarySnapshot;
}

export interface BuildControlsOptions {
  store: LibraryStore;
  /** The evaluation domain. */
  domain: string;
  /** The libraries under evaluation; a control set is built from each one other than `none`. */
  libraries: readonly LibraryUnderTest[];
  /** The other-domain control: this domain's head in the same database (default: the vendored other library). */
  controlDomain?: string;
  seed: number;
}

export interface Controls {
  controls: ControlLibrary[];
  /** Controls that could not be built, and why (printed, not fatal). */
  notes: string[];
}

export const controlLabel = (control: ControlInfo): string =>
  control.kind === "other-domain"
    ? `control: other domain (${control.source})`
    : `control: ${placeboKindNames[control.kind]} (${control.of})`;

/**
 * The placebo libraries of `eval --controls` and `ablate`: keyword stubs and shuffled lessons of every evaluated
 * library other than none, and one other-domain library. Built in memory (see placebo-libraries.ts).
 */
export async function buildControls(options: BuildControlsOptions): Promise<Controls> {
  const { store, domain } = options;
  const controls: ControlLibrary[] = [];
  const notes: string[] = [];
  const add = (control: ControlInfo, snapshot: LibrarySnapshot) =>
    controls.push({
      library: {
        label: controlLabel(control),
        library: { domain: snapshot.domain, version: snapshot.version },
        control,
      },
      snapshot,
    });
  const sources = options.libraries.filter((l) => l.library !== null);
  if (sources.length === 0) {
    notes.push(
      "--controls: no library other than none is evaluated, so there is nothing to build controls from",
    );
    return { controls, notes };
  }
  for (const source of sources) {
    const { domain: sourceDomain, version } = source.library!;
    const snapshot = await store.getVersion(sourceDomain, version);
    if (!snapshot) throw new TfgrpoError("not_found", `--controls: ${source.label} does not exist`);
    const entries = liveEntries(snapshot).length;
    if (entries === 0) {
      notes.push(
        `--controls: ${source.label} has no live entries, so it has no keyword-stub or shuffled control`,
      );
      continue;
    }
    const of = source.label;
    add(
      { kind: "keyword-stubs", of, source: `${of}, each entry cut to <= 3 content words` },
      placeboOf("keyword-stubs", snapshot),
    );
    if (entries < 2)
      notes.push(`--controls: ${of} has one live entry, which cannot be shuffled with another`);
    else
      add(
        { kind: "shuffled", of, source: `${of}, situations and actions re-paired across entries` },
        placeboOf("shuffled", snapshot, { seed: options.seed }),
      );
  }
  add(...(await otherDomainControl(store, domain, options.controlDomain)));
  return { controls, notes };
}

async function otherDomainControl(
  store: LibraryStore,
  domain: string,
  controlDomain: string | undefined,
): Promise<[ControlInfo, LibrarySnapshot]> {
  if (controlDomain !== undefined) {
    if (controlDomain === domain)
      throw new TfgrpoError(
        "invalid_input",
        `--control-domain ${controlDomain}: it must be another domain than ${domain}`,
      );
    const head = await store.getHead(controlDomain);
    if (!head)
      throw new TfgrpoError(
        "not_found",
        `--control-domain ${controlDomain}: the database has no committed library of that domain`,
      );
    const label = `${controlDomain}@v${head.version}`;
    return [
      { kind: "other-domain", of: null, source: label },
      entriesAsLibrary(
        liveEntries(head).map((e) => ({ id: e.id, text: e.text })),
        { version: head.version, source: label },
      ),
    ];
  }
  const name = otherVendoredLibrary(domain);
  const { entries } = await readVendoredLibrary(name);
  const source = `${name}.json, youtu-agent`;
  return [
    { kind: "other-domain", of: null, source },
    entriesAsLibrary(entries, { version: 1, source: `test-data/youtu-agent-libraries/${name}.json` }),
  ];
}

/** Each evaluated library followed by its controls, the other-domain control last. */
export function withControls(
  libraries: readonly EvaluatedLibrary[],
  controls: readonly ControlLibrary[],
): EvaluatedLibrary[] {
  const out: EvaluatedLibrary[] = [];
  for (const library of libraries) {
    out.push(library);
    out.push(...controls.filter((c) => c.library.control.of === library.label).map((c) => c.library));
  }
  out.push(...controls.filter((c) => c.library.control.of === null).map((c) => c.library));
  return out;
}

/** Serves every control's snapshot on the runtime; returns their withdrawal. */
export function serveControls(
  runtime: { serveLibrary(snapshot: LibrarySnapshot): () => void },
  controls: readonly ControlLibrary[],
): () => void {
  const withdrawals = controls.map((control) => runtime.serveLibrary(control.snapshot));
  return () => {
    for (const withdraw of withdrawals) withdraw();
  };
}
