import type { ExperienceStatus } from "@tfgrpo/protocol";
import type { LibraryStore } from "@tfgrpo/store";

/** A candidate version the acceptance gate turned down. */
export interface GateRejection {
  version: number;
  parent: number | null;
  candidateScore: number | null;
  headScore: number | null;
  margin: number;
  tasks: number;
  stage: string;
  reason: string;
}

/** An entry the lifecycle moved: down (active -> probation, anything -> archived) or up (to active). */
export interface LifecycleMove {
  id: string;
  text: string;
  version: number;
  from: ExperienceStatus | null;
  to: ExperienceStatus;
  reason: string;
}

export interface LearningEvents {
  rejections: GateRejection[];
  demotions: LifecycleMove[];
  /** Candidates promoted and probation entries brought back, with the evidence in their reasons. */
  promotions: LifecycleMove[];
}

/**
 * The gate rejections and lifecycle demotions/archivals of a learning run, read from the store the way the report
 * reads them: the gate decisions on the run's library versions, and the transition history of the head's entries
 * (archived entries included), kept to the lifecycle versions the run wrote.
 */
export async function collectLearningEvents(
  store: LibraryStore,
  domain: string,
  runId: string,
): Promise<LearningEvents> {
  const versions = (await store.listVersions(domain)).filter((v) => v.runId === runId);
  // Lifecycle moves are versions of their own (the curator's commits of status-only modifies), apart from the
  // archiving a consolidation does when it merges or deletes entries. Read from the operations, not the message.
  const lifecycle = new Set(
    versions
      .filter(
        (v) =>
          v.ops.length > 0 &&
          v.ops.every((op) => op.op === "modify" && op.status !== undefined && op.text === undefined),
      )
      .map((v) => v.version),
  );
  const rejections = versions
    .filter((v) => v.gate?.decision === "reject")
    .map(
      (v): GateRejection => ({
        version: v.version,
        parent: v.parent,
        candidateScore: v.gate!.candidateScore,
        headScore: v.gate!.headScore,
        margin: v.gate!.margin,
        tasks: v.gate!.tasks,
        stage: v.gate!.stage,
        reason: v.gate!.reason,
      }),
    )
    .sort((a, b) => a.version - b.version);
  const head = await store.getHead(domain);
  const moves = (head?.experiences ?? [])
    .flatMap((entry) =>
      entry.history
        .filter((event) => event.from !== null && lifecycle.has(event.version))
        .map(
          (event): LifecycleMove => ({
            id: entry.id,
            text: entry.text,
            version: event.version,
            from: event.from,
            to: event.to,
            reason: event.reason,
          }),
        ),
    )
    .sort((a, b) => a.version - b.version || Number(a.id.slice(1)) - Number(b.id.slice(1)));
  const demotions = moves.filter(
    (move) => move.to === "archived" || (move.from === "active" && move.to === "probation"),
  );
  const promotions = moves.filter((move) => move.to === "active");
  return { rejections, demotions, promotions };
}

const score = (value: number | null) => (value === null ? "-" : value.toFixed(3));

/** One gate rejection as a line of text, with its scores, margin and validation size. */
export function describeGateRejection(r: GateRejection): string {
  return `gate rejected v${r.version} (parent ${r.parent === null ? "-" : `v${r.parent}`}): candidate ${score(r.candidateScore)} vs head ${score(r.headScore)} on ${r.tasks} validation tasks, margin ${r.margin}, ${r.stage} check — ${r.reason}`;
}

/** What a lifecycle move did, in one word: promoted, restored (back from probation), demoted or archived. */
export function lifecycleMoveVerb(move: LifecycleMove): "promoted" | "restored" | "demoted" | "archived" {
  if (move.to === "archived") return "archived";
  if (move.to === "active") return move.from === "candidate" ? "promoted" : "restored";
  return "demoted";
}

/** One lifecycle move as a line of text; its reason carries the numbers that decided it. */
export function describeLifecycleMove(move: LifecycleMove): string {
  return `lifecycle ${lifecycleMoveVerb(move)} ${move.id} at v${move.version} (${move.from} -> ${move.to}): ${move.reason} — "${truncate(move.text, 90)}"`;
}

/** The events as lines of text, or one plain sentence when there were none. */
export function describeLearningEvents(events: LearningEvents, seed?: number): string[] {
  if (events.rejections.length === 0 && events.demotions.length === 0 && events.promotions.length === 0)
    return [
      `no gate rejection or lifecycle move happened${seed === undefined ? "" : ` for this seed (${seed})`}`,
    ];
  return [
    ...events.rejections.map(describeGateRejection),
    ...events.demotions.map(describeLifecycleMove),
    ...events.promotions.map(describeLifecycleMove),
  ];
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
