import type { Command } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
import { toolNames } from "./help-defaults.js";

export function registerToolCommand(program: Command): void {
  const tool = program.command("tool").description("Run the actor's tools by hand, for debugging and checks");
  tool
    .command("run")
    .description(`Run one tool once and print its result as JSON (tools: ${toolNames.join(", ")})`)
    .argument("<name>", "tool name")
    .requiredOption("--input <json>", 'the tool input, e.g. \'{"code": "print(1 + 1)"}\'')
    .option(
      "--allow-host <host:port>",
      "web_fetch: allow this private or loopback host (repeatable)",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option("--corpus <path>", "web_search: local corpus (JSONL file or folder of HTML/Markdown)")
    .option("--searxng <url>", "web_search: a SearXNG instance")
    .option("--tavily-key-env <name>", "web_search: Tavily, key in this environment variable")
    .option("--brave-key-env <name>", "web_search: Brave, key in this environment variable")
    .option("--timeout-ms <ms>", "time limit of the call", (value: string) => Number.parseInt(value, 10))
    .option(
      "--allow-unsandboxed",
      "code_interpreter: run without bubblewrap if it is unavailable (weaker isolation)",
    )
    .option("--model-view", "print the text the model would read instead of the JSON result")
    // Checked against toolRunCommandOptionsSchema (commands/tool-run-command-options.ts), key for key, by a test.
    .action(async (name: string, raw: unknown) => {
      const options = await checkedOptions(
        "tool run",
        async () => (await import("../commands/tool-run-command-options.js")).toolRunCommandOptionsSchema,
        raw,
      );
      const { toolRun } = await import("../commands/tool.js");
      await toolRun(name, options);
    });
}
