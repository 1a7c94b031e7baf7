#!/usr/bin/env node
// `pnpm run install-test` (part of `npm test`): installs the packed packages the way a user does and runs them.
// Packs (scripts/pack.mjs), installs every tarball with plain npm into an empty directory under os.tmpdir(), then,
// with a PATH where pnpm and tsx cannot run, no workspace node_modules and no `source` condition:
//   1. `npx tfgrpo --help`, `--version` (the packed version) and `doctor` (every required part found);
//   2. `npx tfgrpo demo` on a few tasks (the SIMULATED world shipped with the CLI), and `npx tfgrpo eval` on the
//      tickets example of docs/tools.md (its MCP server spawned per attempt, its reward module);
//   3. `npx tfgrpo library import` of a real library, then an MCP client (the SDK's StdioClientTransport) spawning
//      the server with the README's client configuration (`npx tfgrpo mcp ...`): it lists the tools and gets
//      experiences;
//   4. the README's LangGraph.js script, run as it is written, on that library: its prompt must carry the entries;
//   4b. the README's agent modules (examples/agents: a LangChain createAgent agent, an AI SDK agent, each with
//      tfgrpo's middleware, and an OpenAI Agents SDK agent with its experienceRunner) learn with `npx tfgrpo learn
//      --sim --agent` and run under `eval --agent`, the SIMULATED server as their OpenAI-compatible model; the
//      τ²-retail example agent (examples/agents/tau2-retail-agent.mjs) runs under `eval --agent` on two imported
//      retail tasks, each attempt given its own store;
//   5. a TypeScript file using @tfgrpo/langgraph, /serving, /store and /protocol compiles with `tsc` (NodeNext,
//      strict, skipLibCheck off) against the published declarations.
// Each step prints its time; the first that fails stops the test with its name, its command and output.
// Options: --no-pack (install what packed/ holds), --native-build (let npm compile better-sqlite3 instead of reusing
// the workspace's binary of the same version), --keep (leave the directory for a look).
import { spawn } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const log = (line) => process.stderr.write(`[install-test] ${line}\n`);

class StepFailure extends Error {}

/** Runs a command to completion; a non-zero exit (or a timeout) is a failure carrying its output. */
function run(command, commandArgs, { cwd, env, timeoutMs = 120_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new StepFailure(`${command} could not start: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else {
        const why = signal
          ? `was killed (${signal}${signal === "SIGKILL" ? `, over ${timeoutMs / 1000} s` : ""})`
          : `exited ${code}`;
        reject(
          new StepFailure(
            `\`${command} ${commandArgs.join(" ")}\` ${why}\n--- stdout\n${stdout.slice(-4000)}\n--- stderr\n${stderr.slice(-4000)}`,
          ),
        );
      }
    });
  });
}

function check(condition, message) {
  if (!condition) throw new StepFailure(message);
}

let current = "set-up";
async function step(name, body) {
  current = name;
  const since = Date.now();
  log(`${name} ...`);
  const result = await body();
  log(`${name}: ok (${seconds(since)})`);
  return result;
}

/** The fenced block after `<!-- install-test: NAME -->` in the README: the test runs what the README shows. */
function readmeBlock(name) {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const match = readme.match(
    new RegExp(`<!-- install-test: ${name.replace(/\./g, "\\.")} -->\\s*\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\``),
  );
  check(match, `README.md has no fenced block after <!-- install-test: ${name} -->`);
  return match[1];
}

/** An exact version from pnpm-workspace.yaml's catalog, so the user-side installs match what the packages were built with. */
function catalogVersion(name) {
  const workspace = readFileSync(path.join(root, "pnpm-workspace.yaml"), "utf8");
  const match = workspace.match(new RegExp(`^\\s+"?${name.replace(/[/@]/g, "\\$&")}"?:\\s*(\\S+)\\s*$`, "m"));
  check(match, `pnpm-workspace.yaml's catalog has no ${name}`);
  return match[1];
}

/** The version of a root dev dependency the workspace has installed. */
function workspaceVersion(name) {
  const manifestFile = createRequire(path.join(root, "package.json")).resolve(`${name}/package.json`);
  return JSON.parse(readFileSync(manifestFile, "utf8")).version;
}

/**
 * The environment of a user's shell: no workspace node_modules/.bin on PATH, pnpm/pnpx/tsx/corepack replaced by
 * commands that fail loudly, no NODE_OPTIONS (no `--conditions=source`, no tsx loader), no pnpm or npm script variables.
 */
function userEnvironment(directory) {
  const forbidden = path.join(directory, ".forbidden-bin");
  mkdirSync(forbidden, { recursive: true });
  for (const name of ["pnpm", "pnpx", "tsx", "corepack"]) {
    const file = path.join(forbidden, name);
    writeFileSync(
      file,
      `#!/bin/sh\necho "install-test: '${name} $*' was called: an npm install must not need ${name}" >&2\nexit 97\n`,
    );
    chmodSync(file, 0o755);
  }
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (
      /^(NODE_OPTIONS|NODE_PATH|INIT_CWD|PNPM_.*|pnpm_.*|npm_(lifecycle|package|execpath|node_execpath|command)\w*|npm_config_user_agent|TFGRPO_.*|TURBO_.*)$/i.test(
        key,
      )
    )
      continue;
    env[key] = value;
  }
  const entries = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  env.PATH = [
    forbidden,
    ...entries.filter((entry) => !entry.startsWith(root) && !entry.includes("node_modules")),
  ].join(path.delimiter);
  env.npm_config_nodedir ??= "/usr"; // better-sqlite3 builds against Node's own headers on this kind of machine
  env.npm_config_fund = "false";
  env.npm_config_audit = "false";
  env.npm_config_update_notifier = "false";
  env.TFGRPO_LOG_DIR = path.join(directory, "logs");
  return env;
}

/** Packages whose install scripts `npm install --ignore-scripts` skipped. */
function packagesWithInstallScripts(modules) {
  const found = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith(".")) continue;
    const names = entry.startsWith("@")
      ? readdirSync(path.join(modules, entry)).map((name) => `${entry}/${name}`)
      : [entry];
    for (const name of names) {
      const manifestFile = path.join(modules, name, "package.json");
      if (!existsSync(manifestFile)) continue;
      const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
      const scripts = manifest.scripts ?? {};
      if (
        scripts.preinstall ||
        scripts.install ||
        scripts.postinstall ||
        existsSync(path.join(modules, name, "binding.gyp"))
      ) {
        found.push({ name, version: manifest.version, directory: path.join(modules, name) });
      }
      if (existsSync(path.join(modules, name, "node_modules")))
        found.push(...packagesWithInstallScripts(path.join(modules, name, "node_modules")));
    }
  }
  return found;
}

/**
 * better-sqlite3's binary for this Node, from the workspace's install of the same version (compiled by `pnpm install`
 * against the same headers): compiling it again costs minutes of CPU and tests nothing of ours.
 */
function workspaceNativeBinary(name, version) {
  try {
    const manifestFile = createRequire(path.join(root, "packages/store/package.json")).resolve(
      `${name}/package.json`,
    );
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
    const binary = path.join(path.dirname(manifestFile), "build", "Release");
    return manifest.version === version && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** A typed use of the libraries' public surface; the @ts-expect-error lines fail if the types were `any`. */
const typedConsumer = `import { HumanMessage } from "@langchain/core/messages";
import { experienceMiddleware as aiSdkExperience } from "@tfgrpo/ai-sdk";
import { createExperienceHooks, experienceMiddleware, LibraryBaseStore } from "@tfgrpo/langgraph";
import { experienceRunner } from "@tfgrpo/openai-agents";
import { loadDataset, TfgrpoError } from "@tfgrpo/protocol";
import { createLibraryService, serveMcpStdio } from "@tfgrpo/serving";
import { createStore, type Store } from "@tfgrpo/store";

const store: Store = await createStore(":memory:");
const library = createLibraryService({ store });
const hooks = createExperienceHooks({ library, domain: "math", systemPrompt: "You solve math problems." });
const messages = await hooks.prompt({ messages: [new HumanMessage("What is 6 * 7?")] });
const head: number | null = await store.getHeadVersion("math");
// @ts-expect-error a head version is a number or null
const wrong: string = await store.getHeadVersion("math");
// @ts-expect-error the hooks need a library
createExperienceHooks({ domain: "math", systemPrompt: "" });
const tasks = await loadDataset("tasks.jsonl", { domain: "math" }).catch((error: unknown) => TfgrpoError.isInstance(error));
// The createAgent and AI SDK middlewares take the same library service.
const middleware = experienceMiddleware({ library, domain: "math", reward: (run) => run.finalText.length > 0 });
const aiMiddleware = aiSdkExperience({ library, domain: "math" });
// @ts-expect-error a reward returns a number, a boolean or { reward, success }
experienceMiddleware({ library, domain: "math", reward: () => "yes" });
// An outcome after the run, by run id or from the callback; the OpenAI Agents runner needs the SDK's run.
const later = experienceMiddleware({ library, domain: "math", outcome: async (run) => run.runId.length > 0 });
const runner = experienceRunner({ run: async () => ({ history: [], state: {} }), library, domain: "math" });
// @ts-expect-error experienceRunner runs the team's own SDK: pass its run
experienceRunner({ library, domain: "math" });
await later.reportOutcome("a-run-id", { reward: 0.5 }).catch(() => null);
await runner.settled();
console.log(messages.length, head, wrong, tasks, LibraryBaseStore, serveMcpStdio, middleware.name, aiMiddleware.specificationVersion);
`;

const directory = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-install-test-"));
try {
  check(path.relative(root, directory).startsWith(".."), `${directory} is inside the workspace`);
  const env = userEnvironment(directory);
  const inDirectory = { cwd: directory, env };

  await step("pack", async () => {
    if (args.has("--no-pack")) return;
    await run(process.execPath, [path.join(root, "scripts/pack.mjs")], {
      cwd: root,
      env: process.env,
      timeoutMs: 600_000,
    });
  });
  const tarballs = readdirSync(path.join(root, "packed"))
    .filter((file) => file.endsWith(".tgz"))
    .map((file) => path.join(root, "packed", file));
  check(tarballs.length > 0, "packed/ holds no tarball");

  const installSeconds = await step(
    `npm install (${tarballs.length} tarballs, in ${directory})`,
    async () => {
      const since = Date.now();
      await run("npm", ["init", "-y"], inDirectory);
      // What the README's LangGraph script and the MCP client import beside the tfgrpo packages, as a user adds them,
      // and TypeScript with Node's types to compile a typed consumer against the published declarations.
      const mcpSdk = "@modelcontextprotocol/sdk";
      const userPackages = [
        ...["@langchain/langgraph", "@langchain/core", "@langchain/openai"].map(
          (name) => `${name}@${catalogVersion(name)}`,
        ),
        // What the agent modules of examples/agents import: LangChain v1 and the AI SDK (ai@6, Node 20).
        `langchain@${workspaceVersion("langchain")}`,
        ...["ai", "@ai-sdk/openai-compatible"].map((name) => {
          // `ai` is a dependency of @tfgrpo/ai-sdk, the provider a dev dependency: the version is in one of the two.
          const manifest = JSON.parse(readFileSync(path.join(root, "packages/ai-sdk/package.json"), "utf8"));
          return `${name}@${manifest.dependencies?.[name] ?? manifest.devDependencies[name]}`;
        }),
        // The OpenAI Agents SDK the openai-agents example imports (the version @tfgrpo/openai-agents is tested with).
        `@openai/agents@${JSON.parse(readFileSync(path.join(root, "packages/openai-agents/package.json"), "utf8")).devDependencies["@openai/agents"]}`,
        `${mcpSdk}@${JSON.parse(readFileSync(path.join(root, "packages/serving/package.json"), "utf8")).dependencies[mcpSdk]}`,
        ...["typescript", "@types/node"].map((name) => `${name}@${workspaceVersion(name)}`),
      ];
      const nativeBuild = args.has("--native-build");
      await run(
        "npm",
        [
          "install",
          "--no-audit",
          "--no-fund",
          "--prefer-offline",
          ...(nativeBuild ? [] : ["--ignore-scripts"]),
          ...tarballs,
          ...userPackages,
        ],
        { ...inDirectory, timeoutMs: 900_000 },
      );
      if (!nativeBuild) {
        for (const pkg of packagesWithInstallScripts(path.join(directory, "node_modules"))) {
          const binary = pkg.name === "better-sqlite3" ? workspaceNativeBinary(pkg.name, pkg.version) : null;
          if (binary) {
            cpSync(binary, path.join(pkg.directory, "build", "Release"), { recursive: true });
            log(`  ${pkg.name}@${pkg.version}: the workspace's compiled binary (--native-build compiles it)`);
          } else {
            log(`  ${pkg.name}@${pkg.version}: running its install scripts (npm rebuild)`);
            await run("npm", ["rebuild", pkg.name], { ...inDirectory, timeoutMs: 900_000 });
          }
        }
      }
      const installed =
        JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8")).dependencies ?? {};
      check(
        installed.tfgrpo && installed["@tfgrpo/langgraph"] && installed["@tfgrpo/store"],
        `package.json of ${directory} lacks the tfgrpo packages: ${JSON.stringify(installed)}`,
      );
      return (Date.now() - since) / 1000;
    },
  );

  await step("npx tfgrpo --help", async () => {
    const { stdout } = await run("npx", ["tfgrpo", "--help"], inDirectory);
    for (const command of ["demo", "learn", "mcp", "library"])
      check(
        new RegExp(`^\\s+${command}\\b`, "m").test(stdout),
        `--help does not list ${command}:\n${stdout}`,
      );
  });

  await step("npx tfgrpo --version", async () => {
    const { stdout } = await run("npx", ["tfgrpo", "--version"], inDirectory);
    const installed = JSON.parse(
      readFileSync(path.join(inDirectory.cwd, "node_modules", "tfgrpo", "package.json"), "utf8"),
    ).version;
    check(stdout.trim() === installed, `--version printed "${stdout.trim()}", the package is ${installed}`);
  });

  await step("npx tfgrpo doctor", async () => {
    // The machine that runs the test has what the tests need (scripts/bootstrap.sh), so every required part is found.
    const { stdout } = await run("npx", ["tfgrpo", "doctor"], inDirectory);
    check(
      /bubblewrap/i.test(stdout) && /python3/.test(stdout),
      `doctor did not check the sandbox:\n${stdout}`,
    );
  });

  await step("npx tfgrpo demo (a few tasks)", async () => {
    const { stdout } = await run(
      "npx",
      [
        "tfgrpo",
        "demo",
        "--dir",
        "demo",
        "--train",
        "4",
        "--val",
        "4",
        "--test",
        "4",
        "--epochs",
        "1",
        "--group-size",
        "3",
        "--k",
        "2",
        "--concurrency",
        "4",
      ],
      { ...inDirectory, timeoutMs: 240_000 },
    );
    check(/demo finished in \d+ s \(SIMULATED\)/.test(stdout), `the demo did not finish:\n${stdout}`);
    const report = stdout.match(/^report: (.+\.html)$/m)?.[1];
    check(report && existsSync(report), `the demo's report is missing (${report}):\n${stdout}`);
  });

  await step("npx tfgrpo eval on the tickets example (its own MCP server spawned per attempt)", async () => {
    // The docs' complete example (docs/tools.md), copied as a user would: settings, server, reward and tasks.
    const example = path.join(directory, "tickets");
    cpSync(path.join(root, "examples/tickets"), example, { recursive: true });
    const { stdout } = await run(
      "npx",
      [
        "tfgrpo",
        "eval",
        "--sim",
        "--domain",
        "tickets",
        "--data",
        "tasks.jsonl",
        "--library",
        "none",
        "--k",
        "2",
      ],
      {
        cwd: example,
        env: { ...env, TFGRPO_ACTOR_CONFIG: "actor.yaml", TFGRPO_CRITIC_CONFIG: "critic.yaml" },
        timeoutMs: 240_000,
      },
    );
    const row = stdout.match(/^none\s+\d+\s+([\d.]+)/m);
    check(row && Number(row[1]) > 0, `the tickets evaluation did not reward any attempt:\n${stdout}`);
    log(`  tickets Mean@2 with no library: ${row[1]}%`);
  });

  const database = path.join(directory, "library", "tfgrpo.db");
  const libraryFile = path.join(root, "test-data/youtu-agent-libraries/math.json");
  const entries = Object.values(JSON.parse(readFileSync(libraryFile, "utf8"))).map((text) => text.trim());
  await step("npx tfgrpo library import", async () => {
    mkdirSync(path.dirname(database), { recursive: true });
    const { stdout } = await run(
      "npx",
      ["tfgrpo", "library", "import", libraryFile, "--domain", "math", "--db", database],
      inDirectory,
    );
    check(/imported 27 entries/.test(stdout), `unexpected import output: ${stdout}`);
  });

  await step("MCP client spawning the README's `npx tfgrpo mcp` configuration", async () => {
    const configuration = readmeBlock("mcp.json").replaceAll("/abs/path/.tfgrpo/tfgrpo.db", database);
    writeFileSync(path.join(directory, "mcp.json"), configuration);
    writeFileSync(
      path.join(directory, "mcp-client.mjs"),
      `import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const servers = JSON.parse(readFileSync("mcp.json", "utf8")).mcpServers;
const [name, server] = Object.entries(servers)[0];
const transport = new StdioClientTransport({ command: server.command, args: server.args, stderr: "inherit" });
const client = new Client({ name: "tfgrpo-install-test", version: "0.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const reply = await client.callTool({ name: "get_experiences", arguments: { task: "Find the sum of all positive divisors of 36." } });
await client.close();
console.log(JSON.stringify({ name, tools: tools.map((tool) => tool.name), reply: reply.content.map((part) => part.text ?? "").join("\\n"), isError: reply.isError ?? false }));
`,
    );
    const { stdout, stderr } = await run(process.execPath, ["mcp-client.mjs"], {
      ...inDirectory,
      timeoutMs: 60_000,
    });
    const result = JSON.parse(stdout.trim().split("\n").at(-1));
    for (const tool of ["get_experiences", "report_outcome"])
      check(result.tools.includes(tool), `the MCP server does not list ${tool}: ${stdout}\n${stderr}`);
    check(
      !result.isError && entries.some((entry) => result.reply.includes(entry)),
      `get_experiences returned none of the library's entries: ${result.reply.slice(0, 2000)}\n${stderr}`,
    );
  });

  await step("the README's LangGraph.js script with @tfgrpo/langgraph and @tfgrpo/store", async () => {
    writeFileSync(path.join(directory, "langgraph-agent.mjs"), readmeBlock("langgraph-agent.mjs"));
    const { stdout } = await run(process.execPath, ["langgraph-agent.mjs"], {
      ...inDirectory,
      env: { ...env, TFGRPO_DB: database },
      timeoutMs: 60_000,
    });
    check(
      stdout.startsWith("You solve math problems."),
      `the agent's system prompt does not start with its own prompt:\n${stdout}`,
    );
    const shown = entries.filter((entry) => stdout.includes(entry));
    check(shown.length > 0, `the agent's system prompt carries none of the library's entries:\n${stdout}`);
    log(`  the prompt carries ${shown.length} of the library's ${entries.length} entries`);
  });

  await step(
    "the README's agent modules under learn --agent and eval --agent (the sim as their model)",
    async () => {
      const data = {};
      for (const [split, size] of [
        ["train", 4],
        ["val", 4],
      ]) {
        data[split] = path.join(directory, "agents", `${split}.jsonl`);
        await run(
          "npx",
          ["tfgrpo", "sim", "dataset", "--domain", "math", "--split", split, "--size", String(size)].concat([
            "--seed",
            "3",
            "--out",
            data[split],
          ]),
          inDirectory,
        );
      }
      for (const module of ["langchain-agent.mjs", "ai-sdk-agent.mjs", "openai-agents-agent.mjs"]) {
        cpSync(path.join(root, "examples/agents", module), path.join(directory, module));
        const db = path.join(directory, "agents", `${module}.db`);
        const common = [
          "--sim",
          "--seed",
          "3",
          "--agent",
          module,
          "--domain",
          "math",
          "--db",
          db,
          "--no-trace",
        ];
        const learnOptions = ["--train", data.train, "--val", data.val, "--epochs", "1", "--group-size", "3"];
        const estimate = await run(
          "npx",
          ["tfgrpo", "learn", ...common, ...learnOptions, "--dry-run"],
          inDirectory,
        );
        check(
          /^ {2}agent .* not priced$/m.test(estimate.stdout) && !/^ {2}actor /m.test(estimate.stdout),
          `learn --agent ${module} --dry-run priced the agent's rollouts at tfgrpo's actor:\n${estimate.stdout}`,
        );
        const learned = await run(
          "npx",
          ["tfgrpo", "learn", ...common, ...learnOptions, "--concurrency", "4"],
          { ...inDirectory, timeoutMs: 240_000 },
        );
        check(
          learned.stderr.includes("actor: the team's agent from") && /^head: /m.test(learned.stdout),
          `learn --agent ${module} did not run the agent:\n${learned.stdout}\n${learned.stderr}`,
        );
        const evaluated = await run(
          "npx",
          ["tfgrpo", "eval", ...common, "--data", data.val, "--library", "none", "--k", "2", "--json"],
          { ...inDirectory, timeoutMs: 240_000 },
        );
        const rows = JSON.parse(evaluated.stdout).rows;
        check(
          rows?.[0]?.label === "none" && rows[0].tasks === 4,
          `eval --agent ${module}: ${evaluated.stdout}`,
        );
        log(`  ${module}: learned (${learned.stdout.match(/^head: .*$/m)?.[0]}), evaluated on 4 tasks`);
      }
    },
  );

  await step(
    "the τ²-retail example agent (a createAgent built per attempt with its environment's tools) under eval --agent",
    async () => {
      const retail = path.join(directory, "retail");
      await run(
        "npx",
        [
          "tfgrpo",
          "data",
          "import",
          path.join(root, "test-data/tau2-bench-retail"),
          "--preset",
          "tau2-retail",
        ].concat(["--out-dir", retail]),
        inDirectory,
      );
      const tasks = path.join(retail, "test2.jsonl");
      writeFileSync(
        tasks,
        `${readFileSync(path.join(retail, "test.jsonl"), "utf8").split("\n").slice(0, 2).join("\n")}\n`,
      );
      cpSync(
        path.join(root, "examples/agents/tau2-retail-agent.mjs"),
        path.join(directory, "tau2-retail-agent.mjs"),
      );
      // As the import prints it, with the agent: the store's server spawned per attempt from the imported settings,
      // the SIMULATED model and user, the imported τ² reward on each attempt's final database. The installed sim
      // knows the retail conversations from TFGRPO_SIM_TAU2_RETAIL (the repository's copy is not in its package).
      const evaluated = await run(
        "npx",
        [
          "tfgrpo",
          "eval",
          "--sim",
          "--seed",
          "3",
          "--agent",
          "tau2-retail-agent.mjs",
          "--domain",
          "tau2-retail",
        ].concat(
          ["--settings", retail, "--data", tasks, "--library", "none", "--k", "1", "--json", "--no-trace"],
          ["--db", path.join(retail, "eval.db")],
        ),
        {
          ...inDirectory,
          env: { ...env, TFGRPO_SIM_TAU2_RETAIL: path.join(root, "test-data/tau2-bench-retail") },
          timeoutMs: 240_000,
        },
      );
      const row = JSON.parse(evaluated.stdout).rows?.[0];
      check(
        row?.tasks === 2 && (row.infrastructureFailures ?? 0) === 0 && row.meanToolCalls > 2,
        `eval --agent tau2-retail-agent.mjs: ${evaluated.stdout}\n${evaluated.stderr}`,
      );
      log(
        `  2 conversations, ${row.meanToolCalls} store tool calls each on average, Mean@1 ${row.meanAtK.estimate}`,
      );
    },
  );

  await step("a TypeScript consumer compiles against the published declarations", async () => {
    writeFileSync(
      path.join(directory, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          // DOM: @modelcontextprotocol/sdk's declarations name fetch types (HeadersInit) that @types/node 20 lacks.
          lib: ["ES2023", "ESNext.Disposable", "DOM"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          types: ["node"],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ["consumer.mts"],
      }),
    );
    // Types that resolved to `any` would accept the wrong calls below, and each @ts-expect-error would be an error.
    writeFileSync(path.join(directory, "consumer.mts"), typedConsumer);
    await run("npx", ["tsc", "-p", "tsconfig.json"], { ...inDirectory, timeoutMs: 120_000 });
  });

  log(`passed in ${seconds(started)} (npm install ${installSeconds.toFixed(1)} s)`);
} catch (error) {
  log(
    `FAILED at step "${current}" after ${seconds(started)} (directory ${directory}${args.has("--keep") ? "" : ", removed; --keep leaves it"})`,
  );
  process.stderr.write(`${error instanceof StepFailure ? error.message : (error?.stack ?? String(error))}\n`);
  process.exitCode = 1;
} finally {
  if (args.has("--keep")) log(`left ${directory}`);
  else {
    const since = Date.now();
    rmSync(directory, { recursive: true, force: true });
    log(`removed ${directory} (${seconds(since)})`);
  }
}
