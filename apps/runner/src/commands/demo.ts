import type { Command } from "commander";

export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .description(
      "Run a complete learning run on the simulated world, then compare the learned library with none",
    )
    .action(async () => {
      process.stdout.write(
        [
          "tfgrpo demo (SIMULATED world: packages/sim, not a real model)",
          "The demo will: start the sim model server on loopback, learn a math library from sim training tasks",
          "(rollouts -> rewards -> group advantages -> consolidation -> gated commit), then evaluate the head library",
          "against no library on held-out sim tasks and print both.",
          "",
        ].join("\n"),
      );
    });
}
