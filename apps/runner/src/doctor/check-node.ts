import type { DoctorCheck } from "./doctor-check.js";

/** The oldest Node the workspace supports (the root package.json `engines`: >=20.18; keep the two together). */
export const minimumNodeVersion = "20.18.0";

export function isAtLeast(version: string, minimum: string): boolean {
  const parts = (text: string) => text.replace(/^v/, "").split(".").map(Number);
  const have = parts(version);
  const need = parts(minimum);
  for (let index = 0; index < need.length; index++) {
    const a = have[index] ?? 0;
    const b = need[index] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

export const nodeCheck: DoctorCheck = {
  name: "node",
  purpose: "runs tfgrpo",
  required: () => true,
  run: async () =>
    isAtLeast(process.version, minimumNodeVersion)
      ? { status: "ok", detail: `${process.version} (>= ${minimumNodeVersion})` }
      : {
          status: "missing",
          detail: `${process.version} is older than ${minimumNodeVersion}`,
          install:
            "Debian/Ubuntu: Node 20.18+ from NodeSource or `nvm install 20`; macOS: `brew install node@20` (or nvm)",
        },
};
