import { retentionSettingsFromEnv } from "@tfgrpo/store";

/**
 * A library service's report deadline: the retention settings' one (TFGRPO_RETENTION), so serving (which refuses a
 * late report) and the sweep (which marks "no report") agree; none set: the service's default.
 */
export function reportDeadlineFromEnv(env: NodeJS.ProcessEnv): { reportDeadlineMs?: number } {
  const { reportDeadlineMs } = retentionSettingsFromEnv(env).policy;
  return reportDeadlineMs === undefined ? {} : { reportDeadlineMs };
}
