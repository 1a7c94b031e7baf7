/** What a domain's tasks cannot run without; `learn` and `eval` refuse the domain before any rollout when it is missing. */
export interface DomainRequirements {
  /** Tool entries the actor's domain must have (`mcp:<server>`, `module:<name>` or a built-in). */
  tools?: string[];
  /** A reward module in the critic's settings (`rewards.<domain>`): the default rewards cannot score these tasks. */
  reward?: boolean;
}

/**
 * What the domains of the directory presets need, by domain: the presets declare it, their importers write it on
 * every task (`meta.requires`). Apart from the preset list, which loads the importers.
 */
export const presetDomainRequirements: Readonly<Record<string, DomainRequirements>> = {
  "tau2-retail": { tools: ["mcp:tau2-retail"], reward: true },
  "code-repair": { tools: ["mcp:code-repair"], reward: true },
};
