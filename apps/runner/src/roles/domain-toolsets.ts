import { type ActorConfigInput, actorConfigSchema, type ToolsetFactory } from "@tfgrpo/actor";
import { checkToolset, createToolResources, openToolset, type ToolsConfig } from "@tfgrpo/tools";

export interface DomainToolsets {
  /** A fresh toolset per attempt: its MCP servers with `environment: process | session` reset for the task. */
  factory: ToolsetFactory;
  close(): Promise<void>;
}

/**
 * The tools of every domain of an actor's settings, for tfgrpo's actor and for a team's agent alike: shared tool
 * resources, and a toolset per attempt. Every domain with MCP servers or tool modules is opened once and closed
 * here, before any rollout: a server that does not start or a tool a provider would refuse fails now, in one line
 * naming the domain, the server and the tool.
 */
export async function createDomainToolsets(options: {
  tools: ToolsConfig;
  actor?: ActorConfigInput;
  env?: NodeJS.ProcessEnv;
}): Promise<DomainToolsets> {
  const { tools } = options;
  const resources = createToolResources(tools, { env: options.env ?? process.env });
  const actorConfig = actorConfigSchema.partial().parse(options.actor ?? {});
  const extensible = Object.entries({ ...(tools.domains ?? {}), ...domainTools(actorConfig.domains) }).filter(
    ([, entries]) => entries.some((entry) => entry.includes(":")),
  );
  try {
    for (const [domain, entries] of extensible) await checkToolset({ domain, resources, tools: entries });
  } catch (error) {
    await resources.close();
    throw error;
  }
  return {
    factory: (domain, names, context) =>
      openToolset({
        domain,
        resources,
        tools: names,
        task: context.task,
        ...(context.signal ? { signal: context.signal } : {}),
      }),
    close: () => resources.close(),
  };
}

function domainTools(domains: Record<string, { tools?: string[] }> | undefined): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(domains ?? {}).map(([domain, config]) => [domain, config.tools ?? []]),
  );
}
