import { InvalidArgumentError, Option } from "commander";

/** The team's agent's model prices, USD per million tokens, as `--agent-price` gives them. */
export interface AgentPrice {
  input: number;
  cachedInput: number;
  output: number;
}

/** `IN,OUT[,CACHED]`: USD per million input, output (and cached input, default the input price) tokens. */
export function parseAgentPrice(value: string): AgentPrice {
  const parts = value.split(",").map((part) => part.trim());
  const numbers = parts.map(Number);
  if (
    parts.length < 2 ||
    parts.length > 3 ||
    parts.some((part) => part === "") ||
    numbers.some((number) => !Number.isFinite(number) || number < 0)
  ) {
    throw new InvalidArgumentError(
      "must be IN,OUT or IN,OUT,CACHED: USD per million input, output and cached input tokens, e.g. 0.4,1.6,0.1",
    );
  }
  const [input, output, cachedInput] = numbers as [number, number, number | undefined];
  return { input, output, cachedInput: cachedInput ?? input };
}

/** `--agent-price IN,OUT[,CACHED]`: with --agent and --dry-run, prices the rollouts of the team's agent. */
export function agentPriceOption(): Option {
  return new Option(
    "--agent-price <usd>",
    "with --agent --dry-run: the team's model's prices, USD per million tokens IN,OUT[,CACHED] (default: its rollouts are counted, not priced)",
  ).argParser(parseAgentPrice);
}
