import type { Task } from "@tfgrpo/protocol";
import type { CommandOutput } from "../cli-options/command-output.js";
import { type DomainRequirements, presetDomainRequirements } from "./preset-requirements.js";

/** How a known dataset's records become tasks: which source field is which, and what else to keep. */
export interface DatasetPreset {
  name: string;
  description: string;
  /** Task field -> source field (dotted paths reach into objects and arrays: `prompt.0.content`). */
  map: Record<string, string>;
  /** Source fields that must exist (a Parquet file without one is refused). */
  required: string[];
  /** Source field copied to meta.family (splits keep families apart). */
  family?: string;
  /** Source field copied to meta.time (splits by time). */
  time?: string;
  /** Extra meta fields kept: meta name -> source field. */
  meta?: Record<string, string>;
  /** Text wrapped around the question by the dataset's own prompt template, removed on import. */
  strip?: RegExp[];
  domain: string;
}

// DAPO-Math-17k wraps each problem in its own instruction (answer on a line "Answer: ..."); tfgrpo asks for \boxed{}.
const dapoTemplate = [
  /^Solve the following math problem step by step\. The last line of your response should be of the form Answer: \$Answer \(without quotes\) where \$Answer is the answer to the problem\.\s*/,
  /\s*Remember to put your answer on its own line after "Answer:"\.?\s*$/,
];

export const datasetPresets: Record<string, DatasetPreset> = {
  "aime-2024": {
    name: "aime-2024",
    description: "AIME 2024 (30 problems, integer answers) as JSONL with question/problem and answer",
    map: { question: "question|problem", answer: "answer|solution" },
    required: [],
    meta: { year: "=2024" },
    domain: "math",
  },
  "aime-2025": {
    name: "aime-2025",
    description: "AIME 2025 (30 problems) as JSONL with question/problem and answer",
    map: { question: "question|problem", answer: "answer|solution" },
    required: [],
    meta: { year: "=2025" },
    domain: "math",
  },
  "dapo-math-17k": {
    name: "dapo-math-17k",
    description:
      "DAPO-Math-17k (BytedTsinghua-SIA) in its verl form: prompt[0].content and reward_model.ground_truth (Parquet or JSONL)",
    map: { question: "prompt.0.content", answer: "reward_model.ground_truth", id: "extra_info.index" },
    required: ["prompt", "reward_model"],
    strip: dapoTemplate,
    domain: "math",
  },
  webwalkerqa: {
    name: "webwalkerqa",
    description: "WebWalkerQA (Alibaba-NLP): question, answer, root_url, info.{domain,type,difficulty_level}",
    map: { question: "question", answer: "answer" },
    required: ["question", "answer"],
    family: "info.domain",
    meta: {
      rootUrl: "root_url",
      type: "info.type",
      difficulty: "info.difficulty_level",
      language: "info.lang",
    },
    domain: "web",
  },
};

/** A benchmark imported from its directory as downloaded (tasks, splits and what the domain needs at run time). */
export interface DirectoryPreset {
  description: string;
  /** The domain its tasks are in, and what that domain needs (the settings the import writes provide it). */
  domain: string;
  requires: DomainRequirements;
  /** Loaded when the import runs (the CLI's declarations stay light). */
  load(): Promise<
    (
      options: { dir: string; outDir: string; seed: number; valShare?: number },
      output: CommandOutput,
    ) => Promise<{ train: Task[]; val: Task[] }>
  >;
}

export type { DomainRequirements };

export const directoryPresets: Record<string, DirectoryPreset> = {
  "tau2-retail": {
    domain: "tau2-retail",
    requires: presetDomainRequirements["tau2-retail"]!,
    description:
      "τ²-bench retail's directory (db.json, policy.md, tasks.json, split_tasks.json): train.jsonl (74), test.jsonl (40), the database, the policy and the domain's settings",
    load: async () => (await import("./import-tau2-retail.js")).importTau2Retail,
  },
  quixbugs: {
    domain: "code-repair",
    requires: presetDomainRequirements["code-repair"]!,
    description:
      "QuixBugs' directory (python_programs/, python_testcases/, json_testcases/): one code-repair task per program, split train/val/test by program (seeded), the programs and tests, and the domain's settings and reward",
    load: async () => (await import("./import-quixbugs.js")).importQuixbugs,
  },
};

/** Every preset `data import --preset` knows, files and directories alike: the one list its help and errors name. */
export const presetNames: readonly string[] = [
  ...Object.keys(datasetPresets),
  ...Object.keys(directoryPresets),
];

/** The requirements of a domain a directory preset imports into (tasks imported before they carried their own). */
export function presetRequirements(domain: string): DomainRequirements | undefined {
  return Object.values(directoryPresets).find((preset) => preset.domain === domain)?.requires;
}
