import { Option } from "commander";

/** `--mode tools|direct` (default tools): the actor with its tools (ReAct), or answering directly. */
export function actorModeOption(description = "actor with tools or direct answers"): Option {
  return new Option("--mode <mode>", description).choices(["tools", "direct"]).default("tools");
}
