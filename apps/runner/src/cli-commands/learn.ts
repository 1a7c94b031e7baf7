import { type Command, InvalidArgumentError, Option } from "commander";
import { actorModeOption } from "../cli-options/actor-mode-option.js";
import { agentPriceOption } from "../cli-options/agent-price-option.js";
import { checkDomainOption } from "../cli-options/check-domain-option.js";
import { databaseOption } from "../cli-options/database-option.js";
import {
  nonNegativeInteger,
  positiveInteger,
  positiveNumber,
  probability,
  temperature,
} from "../cli-options/number-arguments.js";
import { simOption } from "../cli-options/sim-option.js";
import { defaultValidationSamples, gateRules } from "./help-defaults.js";

function onConflictChoice(value: string): "revalidate" | "stop" {
  if (value === "revalidate" || value === "stop") return value;
  throw new InvalidArgumentError(`expected revalidate or stop, got "${value}"`);
}

export function registerLearnCommand(program: Command): void {
  program
    .command("learn")
    .description(
      "Learn an experience library with Training-Free GRPO (rollouts, rewards, group advantages, gated commits)",
    )
    .option("--config <file>", "models config (models.yaml)")
    .option("--domain <domain>", "domain of the tasks and of the library, e.g. math")
    .option("--train <file>", "training tasks (JSONL)")
    .option("--val <file>", "held-out validation tasks for the acceptance gate (JSONL)")
    .option("--epochs <n>", "epochs over the training set", positiveInteger, 3)
    .option(
      "--group-size <n>",
      "rollouts per task (G); 1 = single-trajectory reflection (ablation)",
      positiveInteger,
      5,
    )
    .option("--batch-size <n>", "tasks per learning step (default: the whole training set)", positiveInteger)
    .option("--concurrency <n>", "rollouts and role calls in flight", positiveInteger, 16)
    .option("--nats <url>", "run the graph over NATS (workers: tfgrpo serve --role ...)")
    .option("--budget-usd <usd>", "stop cleanly once the run has spent this much", positiveNumber)
    .option(
      "--max-infra-failure-rate <share>",
      "stop the run (interrupted, resumable) when more than this share of a phase's rollouts fail on the infrastructure (model endpoint, sandbox) (default: 0.5)",
      probability,
    )
    .option(
      "--on-conflict <what>",
      "when another runner commits to the same library during validation: revalidate (the step's proposals again, on the new head) or stop (default: revalidate)",
      onConflictChoice,
    )
    .option("--no-ground-truth", "learn without answers: majority vote as a pseudo-label (ablation)")
    .option(
      "--no-exposure",
      "show every attempt of a group the same entries (the paper's loop; no per-entry contrast, so credit cannot tell entries apart)",
    )
    .option(
      "--exposure-active-share <share>",
      "exposure budget: share of groups in which an entry whose decision is settled is varied (open ones always are; default 0.15)",
      probability,
    )
    .option(
      "--settled-task-attempts <n>",
      "attempts for a task whose every earlier group had equal rewards (no mixed group, no contrast; default 2, still two arms); 0: the full group size",
      nonNegativeInteger,
    )
    .option(
      "--direct-experiences <n>",
      "no rollouts: the critic model writes N lessons from training questions in one call, committed as one version (ablation)",
      positiveInteger,
    )
    .option("--resume <run>", "continue a run after a crash, from its last checkpoint")
    .option(
      "--no-trace",
      "do not trace the run (default: spans to traces/<run>.jsonl beside the database, and OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set)",
    )
    .option("--run-id <id>", "id of a new run (default: generated)")
    .option(
      "--record <dir>",
      "write every model request and response (keys redacted) into DIR, a cassette --replay serves back",
    )
    .option("--dry-run", "print the expected model calls, tokens and USD per role (a range), call no model")
    .option(
      "--replay <dir>",
      "answer every model call from a cassette recorded with --record (no model endpoint)",
    )
    .option("--seed <n>", "seed of batch order and sampling", nonNegativeInteger, 1)
    .option(
      "--stratify-by <field>",
      "task field each batch holds in proportion, e.g. meta.family or domain; none: a plain shuffle (default: meta.family when the tasks carry it)",
    )
    .option(
      "--failure-share <share>",
      "share of each batch given to tasks that failed earlier in the run (default: 0.2)",
      probability,
    )
    .option(
      "--compact-trajectories-after <steps>",
      "keep the full text (messages, tool calls) of the last <steps> steps' trajectories; older ones keep only ids, rewards, usage and the entries shown (default: keep everything)",
      positiveInteger,
    )
    .addOption(databaseOption())
    .addOption(
      new Option(
        "--gate <rule>",
        "acceptance gate: sequential (validation in rounds until the decision is settled), paired-t (one paired t test at --val-k samples), paper (the paper's keep-unless-worse at --val-k samples, no test) (default: the curator's configured gate, sequential unless its settings say otherwise)",
      ).choices(gateRules),
    )
    .option(
      "--val-k <n>",
      "samples per validation task of --gate paired-t and paper (at least 3 for tasks without answers, with --no-ground-truth)",
      positiveInteger,
      defaultValidationSamples,
    )
    .option(
      "--val-max-k <n>",
      "--gate sequential: the most samples per validation task (default: enough for 120 paired samples, 2 to 32)",
      positiveInteger,
    )
    .option(
      "--val-ahead <n>",
      "--gate sequential: validation rounds sampled ahead of the gate's looks, at once (default: as many as fill --concurrency); the gate still decides round by round, and rounds past its decision are kept for the next step",
      positiveInteger,
    )
    .option(
      "--precheck <n>",
      "validation tasks of a cheap pre-check before the full gate (0 = off)",
      nonNegativeInteger,
      0,
    )
    .addOption(actorModeOption())
    .option(
      "--agent <file>",
      "the team's agent module (a createAgent agent, an AI SDK agent or a function): it runs the rollouts instead of tfgrpo's actor",
    )
    .addOption(agentPriceOption())
    .option("--no-baseline", "do not evaluate the empty library after every round")
    .option(
      "--settings <path>",
      "the actor and critic settings of the domain: the folder `data import --preset` wrote (DOMAIN.yaml, DOMAIN.critic.yaml) or one settings file; without it $TFGRPO_ACTOR_CONFIG / $TFGRPO_CRITIC_CONFIG, else those files beside the tasks",
    )
    .option(
      "--local-roles <roles>",
      "roles this process hosts (the rest come from workers)",
      "actor,critic,curator",
    )
    .addOption(simOption())
    .option(
      "--sim-faults <spec>",
      'with --sim: inject model faults into the SIMULATED server, e.g. "rate=0.2,kinds=429,500,hang,malformed,truncated,hangMs=2000" (as tfgrpo sim --faults)',
    )
    .option("--temperature <t>", "rollout temperature while learning", temperature, 0.7)
    .option("--eval-temperature <t>", "temperature of validation rollouts", temperature, 0.3)
    .option(
      "--report <file>",
      "where to write the HTML report (default: reports/<run>.html beside the database)",
    )
    .hook("preAction", checkDomainOption)
    // Checked against learnCommandOptionsSchema (commands/learn-command-options.ts), key for key, by a test.
    .action(async (options: unknown) => {
      const { learnFromCli } = await import("../commands/learn.js");
      await learnFromCli(options);
    });
}
