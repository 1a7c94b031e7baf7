/** What `tfgrpo doctor` checks: one part of this machine a command needs, and how to get it when it is missing. */
export interface DoctorCheck {
  /** Short name shown in the first column: `node`, `python3`, `bubblewrap`... */
  name: string;
  /** What needs it, said in a few words. */
  purpose: string;
  /** Required parts fail the doctor (non-zero exit) when missing; optional ones only say so. */
  required: (context: DoctorContext) => boolean;
  run(context: DoctorContext): Promise<CheckOutcome>;
}

export interface DoctorContext {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** `doctor --db URL`: a database to reach (a postgres:// URL is connected to). */
  db?: string | undefined;
}

/** ok: usable; missing: not there (or not working); warn: there but not as a command needs it; skipped: not asked. */
export type CheckStatus = "ok" | "missing" | "warn" | "skipped";

export interface CheckOutcome {
  status: CheckStatus;
  /** What was found, or what is wrong. */
  detail: string;
  /** How to install it (Debian/Ubuntu and macOS), given when it is missing or wrong. */
  install?: string;
}

export interface CheckReport extends CheckOutcome {
  name: string;
  purpose: string;
  required: boolean;
}
