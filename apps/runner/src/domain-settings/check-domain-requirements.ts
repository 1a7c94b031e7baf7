import { domainConfigFor, parseActorConfig } from "@tfgrpo/actor";
import { type Task, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { type DomainRequirements, presetRequirements } from "../data-import/dataset-presets.js";
import type { ActorSettings } from "../roles/actor.js";
import type { CriticSettings } from "../roles/critic.js";
import type { FoundSettingsFile } from "./find-domain-settings.js";

/** `meta.requires` of a task: what its domain must be configured with (written by `data import --preset`). */
const taskRequirementsSchema = z.object({
  tools: z.array(z.string().min(1)).optional(),
  reward: z.boolean().optional(),
});

/** What the domain's tasks need: their own `meta.requires`, and what the preset their domain comes from declares. */
export function domainRequirements(domain: string, tasks: readonly Task[]): Required<DomainRequirements> {
  const tools = new Set(presetRequirements(domain)?.tools ?? []);
  let reward = presetRequirements(domain)?.reward ?? false;
  for (const task of tasks) {
    // Another shape under the same name is someone else's field, not a declaration: it is left alone.
    const parsed = taskRequirementsSchema.safeParse(task.meta?.requires);
    if (!parsed.success) continue;
    for (const tool of parsed.data.tools ?? []) tools.add(tool);
    reward ||= parsed.data.reward === true;
  }
  return { tools: [...tools], reward };
}

export interface CheckDomainRequirementsOptions {
  domain: string;
  tasks: readonly Task[];
  /** The actor's settings as this process will run them; undefined when the actor runs elsewhere (not checked). */
  actor?: { settings: ActorSettings; file?: FoundSettingsFile };
  /** The critic's settings as this process will run them; undefined when the critic runs elsewhere. */
  critic?: { settings: CriticSettings; file?: FoundSettingsFile };
  /** `--mode direct` asks for no tools: only the reward is checked. */
  mode: "tools" | "direct";
}

const howToSet = (variable: string, file: string) =>
  `pass --settings DIR (the folder \`tfgrpo data import --preset\` wrote) or set ${variable} to its ${file}`;

/**
 * Refuses, in one line naming the domain, the tool and the setting, a domain whose tasks need a tool or a reward
 * module that the settings this process runs with do not configure: without them every attempt would run without
 * its tools (or be scored by the wrong rule) and report 0% with no error.
 */
export function checkDomainRequirements(options: CheckDomainRequirementsOptions): void {
  const { domain } = options;
  const needs = domainRequirements(domain, options.tasks);
  if (options.actor && options.mode === "tools") {
    const { settings, file } = options.actor;
    const listed = domainConfigFor(parseActorConfig(settings.actor ?? {}), domain).tools;
    for (const tool of needs.tools) {
      const [kind, name] = tool.includes(":") ? (tool.split(":", 2) as [string, string]) : [tool, ""];
      let missing: string | undefined;
      if (!listed.includes(tool)) missing = `actor.domains.${domain}.tools does not list it`;
      else if (kind === "mcp" && !settings.tools?.servers?.[name])
        missing = `tools.servers has no server ${name}`;
      else if (kind === "module" && !settings.tools?.modules?.[name])
        missing = `tools.modules has no module ${name}`;
      if (missing === undefined) continue;
      throw new TfgrpoError(
        "invalid_config",
        `domain ${domain} needs the tool ${tool}, which ${file ? `the actor settings ${file.file} do not give (${missing})` : "no actor settings give"}: ${howToSet("TFGRPO_ACTOR_CONFIG", `${domain}.yaml`)}`,
        { details: { domain, tool, setting: "TFGRPO_ACTOR_CONFIG" } },
      );
    }
  }
  if (options.critic && needs.reward && !options.critic.settings.rewards?.[domain]) {
    const file = options.critic.file;
    throw new TfgrpoError(
      "invalid_config",
      `domain ${domain} needs its reward module (rewards.${domain}), which ${file ? `the critic settings ${file.file} do not give` : "no critic settings give"}: ${howToSet("TFGRPO_CRITIC_CONFIG", `${domain}.critic.yaml`)}`,
      { details: { domain, setting: "TFGRPO_CRITIC_CONFIG" } },
    );
  }
}
