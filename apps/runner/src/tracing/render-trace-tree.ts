import { spanAttributes } from "@tfgrpo/protocol";
import type { TraceLine } from "./trace-line.js";

export interface TraceTreeOptions {
  /** Only the step with this number (the `learn step N` trace). */
  step?: number;
  /** Only this rollout: its rollout id (`<group>/<attempt>`) or trajectory id. */
  rollout?: string;
  /** Siblings of one name shown before the rest are summed up in one line. Default 4. */
  siblings?: number;
}

interface Node {
  span: TraceLine;
  children: Node[];
}

/**
 * A run's spans as an indented tree: name, duration, and the cost and tokens of the model calls below each span.
 * Many siblings of one name (a step's rollouts) are shown a few at a time, the rest summed up in one line.
 */
export function renderTraceTree(spans: readonly TraceLine[], options: TraceTreeOptions = {}): string {
  const roots = buildTree(spans);
  let selected = roots;
  if (options.step !== undefined) {
    selected = roots.filter(
      (root) => root.span.attributes[spanAttributes.step] === options.step && !root.span.parentSpanId,
    );
    if (selected.length === 0) return `no spans of step ${options.step} in this trace\n`;
  }
  if (options.rollout !== undefined) {
    const wanted = options.rollout;
    selected = findAll(selected, (node) => {
      const attributes = node.span.attributes;
      return attributes[spanAttributes.rolloutId] === wanted || attributes["tfgrpo.trajectory_id"] === wanted;
    });
    if (selected.length === 0) return `no rollout ${wanted} in this trace\n`;
  }
  const lines: string[] = [];
  const siblings = options.siblings ?? (options.rollout !== undefined ? Number.POSITIVE_INFINITY : 4);
  for (const root of selected) render(root, 0, lines, siblings);
  return `${lines.join("\n")}\n`;
}

function buildTree(spans: readonly TraceLine[]): Node[] {
  const nodes = new Map<string, Node>();
  for (const span of spans) nodes.set(span.spanId, { span, children: [] });
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parentSpanId ? nodes.get(node.span.parentSpanId) : undefined;
    // A parent not in this file (a worker's spans exported elsewhere) leaves its child a root.
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const byStart = (a: Node, b: Node) => a.span.start - b.span.start;
  for (const node of nodes.values()) node.children.sort(byStart);
  return roots.sort(byStart);
}

function findAll(nodes: readonly Node[], match: (node: Node) => boolean): Node[] {
  const found: Node[] = [];
  const visit = (node: Node) => {
    if (match(node)) found.push(node);
    else node.children.forEach(visit);
  };
  nodes.forEach(visit);
  return found;
}

interface Totals {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  calls: number;
}

/** Cost and tokens of the model calls in a subtree (only model-call spans carry them, so nothing counts twice). */
function totals(node: Node): Totals {
  const attributes = node.span.attributes;
  const own: Totals =
    attributes[spanAttributes.genAiOperation] === undefined
      ? { costUsd: 0, inputTokens: 0, outputTokens: 0, calls: 0 }
      : {
          costUsd: numberOf(attributes[spanAttributes.costUsd]),
          inputTokens: numberOf(attributes[spanAttributes.genAiInputTokens]),
          outputTokens: numberOf(attributes[spanAttributes.genAiOutputTokens]),
          calls: 1,
        };
  for (const child of node.children) {
    const sub = totals(child);
    own.costUsd += sub.costUsd;
    own.inputTokens += sub.inputTokens;
    own.outputTokens += sub.outputTokens;
    own.calls += sub.calls;
  }
  return own;
}

function render(node: Node, depth: number, lines: string[], siblings: number): void {
  lines.push(`${"  ".repeat(depth)}${describe(node)}`);
  const byName = new Map<string, Node[]>();
  for (const child of node.children)
    byName.set(child.span.name, [...(byName.get(child.span.name) ?? []), child]);
  const shownOfName = new Map<string, number>();
  const summarized = new Set<string>();
  for (const child of node.children) {
    const group = byName.get(child.span.name)!;
    const shown = shownOfName.get(child.span.name) ?? 0;
    if (shown < siblings || group.length <= siblings + 1) {
      shownOfName.set(child.span.name, shown + 1);
      render(child, depth + 1, lines, siblings);
    } else if (!summarized.has(child.span.name)) {
      summarized.add(child.span.name);
      lines.push(`${"  ".repeat(depth + 1)}${summarize(group.slice(siblings))}`);
    }
  }
}

function describe(node: Node): string {
  const { span } = node;
  const parts = [span.name, formatDuration(span.durationMs)];
  const sum = totals(node);
  if (sum.calls > 0) {
    parts.push(formatUsd(sum.costUsd));
    parts.push(
      `${sum.calls} call${sum.calls === 1 ? "" : "s"}, ${sum.inputTokens} in / ${sum.outputTokens} out tokens`,
    );
  }
  const attributes = span.attributes;
  const cached = attributes[spanAttributes.genAiCachedInputTokens];
  if (typeof cached === "number" && cached > 0) parts.push(`${cached} cached`);
  const exit = attributes[spanAttributes.toolExitStatus];
  if (exit !== undefined) parts.push(`exit ${exit}`);
  const kill = attributes[spanAttributes.toolKillReason];
  if (kill !== undefined) parts.push(`killed: ${kill}`);
  const rollout = attributes[spanAttributes.rolloutId];
  if (rollout !== undefined) parts.push(`[${rollout}]`);
  if (span.service !== "tfgrpo-runner") parts.push(`(${span.service})`);
  if (span.status === "error") parts.push(`ERROR${span.statusMessage ? `: ${span.statusMessage}` : ""}`);
  return parts.join("  ");
}

function summarize(rest: readonly Node[]): string {
  const durations = rest.map((node) => node.span.durationMs).sort((a, b) => a - b);
  const median = durations[Math.floor(durations.length / 2)] ?? 0;
  const cost = rest.reduce((sum, node) => sum + totals(node).costUsd, 0);
  const failed = rest.filter((node) => node.span.status === "error").length;
  return `… ${rest.length} more ${rest[0]!.span.name} (median ${formatDuration(median)}, max ${formatDuration(durations.at(-1) ?? 0)}, ${formatUsd(cost)}${failed > 0 ? `, ${failed} failed` : ""})`;
}

function numberOf(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function formatDuration(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function formatUsd(usd: number): string {
  return `$${usd < 0.01 ? usd.toFixed(5) : usd.toFixed(4)}`;
}
