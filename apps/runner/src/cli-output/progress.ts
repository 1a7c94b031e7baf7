export interface ProgressExtra {
  tokens?: number;
  costUsd?: number;
  note?: string;
}

export interface Progress {
  update(done: number, extra?: ProgressExtra): void;
  /** Grow the total (e.g. when a phase learns it has more jobs). */
  setTotal(total: number): void;
  done(extra?: ProgressExtra): void;
}

export interface ProgressOptions {
  label: string;
  total: number;
  stream?: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean; columns?: number };
  now?: () => number;
  /** When not on a TTY: at most one log line per this many ms (and at 25/50/75/100%). */
  logEveryMs?: number;
  silent?: boolean;
}

/**
 * Progress for long phases: a redrawn bar with count, ETA, tokens and cost on a TTY; plain timestamped log lines
 * otherwise (CI logs, pipes), so nothing is lost to carriage returns.
 */
export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const tty = Boolean(stream.isTTY);
  const started = now();
  const logEveryMs = options.logEveryMs ?? 5000;
  let total = options.total;
  let lastLog = -Infinity;
  let lastQuarter = -1;
  let lastDone = 0;
  let lastPrinted = -1;
  let finished = false;

  const describe = (done: number, extra: ProgressExtra = {}): string => {
    const elapsed = now() - started;
    const rate = done > 0 ? elapsed / done : 0;
    const eta =
      done > 0 && done < total ? formatDuration(rate * (total - done)) : done >= total ? "done" : "?";
    const parts = [`${done}/${total}`, `ETA ${eta}`];
    if (extra.tokens !== undefined) parts.push(`${formatCount(extra.tokens)} tok`);
    if (extra.costUsd !== undefined) parts.push(`$${extra.costUsd.toFixed(4)}`);
    if (extra.note) parts.push(extra.note);
    return parts.join("  ");
  };

  const render = (done: number, extra?: ProgressExtra, force = false) => {
    if (options.silent || finished) return;
    lastDone = done;
    if (tty) {
      const width = 24;
      const filled = total > 0 ? Math.round((Math.min(done, total) / total) * width) : 0;
      const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
      stream.write(`\r\x1b[2K${options.label} ${bar} ${describe(done, extra)}`);
      return;
    }
    const quarter = total > 0 ? Math.floor((done / total) * 4) : 0;
    if ((force && lastPrinted !== done) || quarter > lastQuarter || now() - lastLog >= logEveryMs) {
      lastQuarter = Math.max(lastQuarter, quarter);
      lastPrinted = done;
      lastLog = now();
      stream.write(`[${new Date(now()).toISOString()}] ${options.label}: ${describe(done, extra)}\n`);
    }
  };

  return {
    update: (done, extra) => render(done, extra),
    setTotal: (value) => {
      total = value;
    },
    done: (extra) => {
      render(Math.max(lastDone, total), extra, true);
      if (tty && !options.silent && !finished) stream.write("\n");
      finished = true;
    },
  };
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

function formatCount(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}
