import { randomUUID } from "node:crypto";
import { type ActorConfigInput, formatTrajectory, type LibraryLoader } from "@tfgrpo/actor";
import {
  actorRollout,
  domainSchema,
  libraryGet,
  parseLibraryRef,
  type RolloutRequest,
  servedLibrarySnapshot,
  TfgrpoError,
  type Trajectory,
} from "@tfgrpo/protocol";
import { createStore, type Store } from "@tfgrpo/store";
import { requireExistingDatabase } from "../cli-options/require-existing-database.js";
import { requireModelsConfig } from "../cli-options/require-models-config.js";
import { createActorRuntime, loadActorSettings } from "../roles/actor.js";
import { createBus } from "../runtime/create-bus.js";
import { startSimWorld } from "../runtime/start-sim-world.js";
import { resolveDatabase } from "./library.js";
import type { SolveOptions } from "./solve-command-options.js";

export type { SolveOptions };

export interface SolveDependencies {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** One rollout of one question, printed readably (or as JSON); returns the trajectory. */
export async function solve(
  options: SolveOptions,
  dependencies: SolveDependencies = {},
): Promise<Trajectory> {
  const stdout = dependencies.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = dependencies.stderr ?? ((text: string) => process.stderr.write(text));
  let env = dependencies.env ?? process.env;
  const log = (line: string) => stderr(`${line}\n`);

  const ref = parseRef(options.library);
  const domain = parseDomain(options.domain ?? ref?.domain ?? "math");
  if (ref && ref.domain !== domain) {
    throw new TfgrpoError(
      "invalid_input",
      `--library ${options.library} is a ${ref.domain} library but --domain is ${domain}`,
    );
  }
  if (options.question.trim() === "") throw new TfgrpoError("invalid_input", "solve needs a question");

  const cleanup: (() => Promise<void>)[] = [];
  try {
    let store: Store | undefined;
    let version: number | null = null;
    if (ref) {
      store = await openExistingStore(resolveDatabase(options, env));
      cleanup.push(() => store!.close());
      version = ref.version === "head" ? await store.getHeadVersion(domain) : ref.version;
      if (version === null)
        throw new TfgrpoError("not_found", `library ${domain} has no committed version yet`);
      if (!(await store.getVersionInfo(domain, version))) {
        throw new TfgrpoError("not_found", `library ${domain}@v${version} does not exist`);
      }
    }

    const request: RolloutRequest = {
      runId: `solve-${randomUUID().slice(0, 8)}`,
      task: { id: "question", domain, question: options.question },
      groupId: "solve",
      attempt: 0,
      library: version === null ? null : { domain, version },
      purpose: "solve",
      ...(options.mode ? { mode: options.mode } : {}),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    };

    let trajectory: Trajectory;
    if (options.nats) {
      // The workers read the library over the Bus; this process owns the database, so it answers those reads.
      const bus = await createBus({ nats: options.nats, name: `tfgrpo solve ${process.pid}` });
      cleanup.push(() => bus.close());
      if (store) {
        const libraries = store;
        const handle = await bus.handle(libraryGet, async (input) =>
          servedLibrarySnapshot(
            input.version === "head"
              ? await libraries.getHead(input.domain)
              : await libraries.getVersion(input.domain, input.version),
          ),
        );
        cleanup.push(() => handle.close());
      }
      trajectory = await bus.request(actorRollout, request);
    } else {
      let modelsConfig = options.config;
      let simCorpusUrl: string | undefined;
      let workDirectory: string | undefined;
      if (options.sim) {
        const world = await startSimWorld({ seed: options.simSeed ?? 1 });
        cleanup.push(() => world.close());
        modelsConfig ??= world.config;
        simCorpusUrl = world.server.corpusUrl;
        workDirectory = world.directory;
        // examples/models.sim.yaml reads the port from SIM_PORT.
        env = { ...env, SIM_PORT: String(world.server.port) };
        stderr(`${world.server.label}\n`);
      }
      const settingsFile = options.actorConfig ?? env.TFGRPO_ACTOR_CONFIG;
      const settings = settingsFile ? await loadActorSettings(settingsFile) : {};
      const limits: ActorConfigInput = {
        ...(settings.actor ?? {}),
        ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        ...(options.maxToolCalls === undefined ? {} : { maxToolCalls: options.maxToolCalls }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      };
      const library: LibraryLoader | undefined = store
        ? (libraryDomain, libraryVersion) => store.getVersion(libraryDomain, libraryVersion)
        : undefined;
      const runtime = await createActorRuntime({
        // Without --sim there is no default: solve must not quietly talk to a simulated world it was not told about.
        modelsConfig: modelsConfig ?? requireModelsConfig(undefined, "solve (without --sim)", env),
        ...(library ? { library } : {}),
        settings: { ...settings, actor: limits },
        ...(simCorpusUrl ? { simCorpusUrl } : {}),
        ...(workDirectory ? { workDirectory } : {}),
        log,
        env,
      });
      cleanup.push(() => runtime.close());
      trajectory = await runtime.actor.rollout(request);
    }

    stdout(
      options.json
        ? `${JSON.stringify(trajectory, null, 2)}\n`
        : `${formatTrajectory(trajectory, { showSystemPrompt: options.showPrompt === true })}\n`,
    );
    return trajectory;
  } finally {
    for (const release of cleanup.reverse()) await release();
  }
}

function parseRef(value: string) {
  try {
    return parseLibraryRef(value);
  } catch {
    throw new TfgrpoError(
      "invalid_input",
      `--library ${value}: expected math@head, math@v3, math@3 or none`,
      {
        details: { library: value },
      },
    );
  }
}

function parseDomain(value: string): string {
  const parsed = domainSchema.safeParse(value);
  if (!parsed.success) {
    throw new TfgrpoError("invalid_input", `--domain ${value}: ${parsed.error.issues[0]!.message}`);
  }
  return parsed.data;
}

async function openExistingStore(location: string): Promise<Store> {
  requireExistingDatabase(
    location,
    "import a library with tfgrpo library import, pass --db, or use --library none",
  );
  return createStore(location, { mustExist: true });
}
