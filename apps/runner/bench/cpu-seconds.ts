import { readFileSync } from "node:fs";

/**
 * CPU seconds of a process and of its children it has waited for (the sandboxed Python sessions), from /proc (Linux;
 * 0 elsewhere). Clock ticks are 100 per second on Linux.
 */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14).
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) / 100;
  } catch {
    return 0;
  }
}
