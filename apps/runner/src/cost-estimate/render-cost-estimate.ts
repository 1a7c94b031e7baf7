import type { CostEstimate, Range } from "./estimate-run-cost.js";

const count = (value: number) =>
  value >= 1_000_000
    ? `${(value / 1_000_000).toFixed(1)}M`
    : value >= 10_000
      ? `${(value / 1000).toFixed(0)}k`
      : String(Math.round(value));
const span = (range: Range, format: (value: number) => string) =>
  `${format(range[1])} (${format(range[0])}–${format(range[2])})`;
const dollars = (value: number) => `$${value < 1 ? value.toFixed(3) : value.toFixed(2)}`;

/** The estimate as a few lines: per role, expected value and range of calls, tokens and USD, then what it assumed. */
export function renderCostEstimate(estimate: CostEstimate, title: string): string {
  const agent = estimate.roles.find((role) => role.role === "agent");
  const lines = [
    `${title}: ${span(estimate.rollouts, count)} rollouts${agent ? " by the team's agent" : ""}; expected (low–high):`,
    ...estimate.roles.map(
      (role) =>
        `  ${role.role.padEnd(8)} ${span(role.calls, count)} calls, ${span(role.inputTokens, count)} input + ${span(role.outputTokens, count)} output tokens, ${
          role.priced ? span(role.costUsd, dollars) : "not priced"
        }`,
    ),
    `  total    ${span(estimate.total.calls, count)} calls, ${span(estimate.total.costUsd, dollars)}${
      agent && !agent.priced ? " for tfgrpo's roles (critic, curator); the agent's calls are not in it" : ""
    }`,
    ...(agent
      ? [
          `  agent    the rollouts (training and validation) run on the team's model, not on the models config's actor: ${
            agent.priced
              ? "priced at --agent-price"
              : "its calls and tokens are counted, not priced (--agent-price IN,OUT[,CACHED] USD per million tokens prices them)"
          }; its tokens assume tfgrpo's actor prompt`,
        ]
      : []),
    `  assumptions (${estimate.assumptions.source}): accuracy ${estimate.assumptions.accuracy.map((value) => value.toFixed(2)).join("/")}, ` +
      `${estimate.assumptions.callsPerRollout.map((value) => value.toFixed(1)).join("/")} calls per rollout, ` +
      `${estimate.assumptions.actorOutputPerCall.map(count).join("/")} output tokens per actor call; ` +
      `actor prompt ${estimate.prompts.actorPrompt} tokens (measured); low end counts prompt caching`,
  ];
  return lines.join("\n");
}
