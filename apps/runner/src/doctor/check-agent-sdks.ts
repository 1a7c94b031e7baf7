import { isAtLeast } from "./check-node.js";
import type { CheckOutcome, DoctorCheck } from "./doctor-check.js";

/** The Node the newest agent SDKs declare: Mastra 1.x (>= 22.13), @openai/agents 0.15+ and ai@7 (openai@7: >= 22). */
export const agentSdksNodeVersion = "22.13.0";

/** What the agent SDKs a team's agent may use need of Node `version` (docs/agents.md "Which SDK versions run where"). */
export function agentSdksOutcome(version: string): CheckOutcome {
  return isAtLeast(version, agentSdksNodeVersion)
    ? {
        status: "ok",
        detail: `${version}: the newest @openai/agents and Mastra 1.x run here (tfgrpo's AI SDK middleware is for ai@6)`,
      }
    : {
        status: "warn",
        detail: `${version}: @openai/agents up to 0.14.3 and ai@6 run here; @openai/agents 0.15+, ai@7 and Mastra 1.x (the Mastra for ai@6 models) need Node ${agentSdksNodeVersion}`,
        install: "Node 22: `nvm install 22`, NodeSource 22.x, or `brew install node@22`",
      };
}

/** Never required: tfgrpo itself runs on Node 20.18; only the newest releases of the agent SDKs need Node 22. */
export const agentSdksCheck: DoctorCheck = {
  name: "agent-sdks",
  purpose: "a team's agent on the newest @openai/agents or Mastra (learn --agent, served agents)",
  required: () => false,
  run: async () => agentSdksOutcome(process.version),
};
