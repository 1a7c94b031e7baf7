import type { Task } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { checkDomainRequirements, domainRequirements } from "./check-domain-requirements.js";

const task = (meta?: Record<string, unknown>): Task => ({
  id: "t1",
  domain: "shop",
  question: "q",
  answer: "a",
  ...(meta ? { meta } : {}),
});
const configured = {
  actor: { domains: { shop: { tools: ["mcp:shop"], systemPrompt: "You run the shop." } } },
  tools: { servers: { shop: { command: "node", args: ["server.js"] } } },
};
const file = { file: "/data/shop.yaml", source: "beside --data" as const };

describe("checkDomainRequirements", () => {
  it("the tasks' meta.requires and the preset's declaration of its domain", () => {
    expect(domainRequirements("shop", [task({ requires: { tools: ["mcp:shop"], reward: true } })])).toEqual({
      tools: ["mcp:shop"],
      reward: true,
    });
    expect(domainRequirements("tau2-retail", [])).toEqual({ tools: ["mcp:tau2-retail"], reward: true });
    // Someone else's field of the same name is not a declaration.
    expect(domainRequirements("shop", [task({ requires: "python 3" })])).toEqual({
      tools: [],
      reward: false,
    });
  });

  it("refuses a domain without its tool in one line naming the domain, the tool and the setting", () => {
    const tasks = [task({ requires: { tools: ["mcp:shop"] } })];
    expect(() =>
      checkDomainRequirements({ domain: "shop", tasks, mode: "tools", actor: { settings: {} } }),
    ).toThrow(
      "domain shop needs the tool mcp:shop, which no actor settings give: pass --settings DIR (the folder `tfgrpo data import --preset` wrote) or set TFGRPO_ACTOR_CONFIG to its shop.yaml",
    );
    expect(() =>
      checkDomainRequirements({
        domain: "shop",
        tasks,
        mode: "tools",
        actor: { settings: { ...configured, tools: {} }, file },
      }),
    ).toThrow(
      "domain shop needs the tool mcp:shop, which the actor settings /data/shop.yaml do not give (tools.servers has no server shop)",
    );
    checkDomainRequirements({ domain: "shop", tasks, mode: "tools", actor: { settings: configured, file } });
    // Direct answers ask for no tools; an actor on another machine is that worker's business.
    checkDomainRequirements({ domain: "shop", tasks, mode: "direct", actor: { settings: {} } });
    checkDomainRequirements({ domain: "shop", tasks, mode: "tools" });
  });

  it("refuses a domain whose reward module is missing", () => {
    const tasks = [task({ requires: { reward: true } })];
    expect(() =>
      checkDomainRequirements({ domain: "shop", tasks, mode: "tools", critic: { settings: {} } }),
    ).toThrow(
      "domain shop needs its reward module (rewards.shop), which no critic settings give: pass --settings DIR",
    );
    checkDomainRequirements({
      domain: "shop",
      tasks,
      mode: "tools",
      critic: { settings: { rewards: { shop: "/data/reward.mjs" } } },
    });
  });
});
