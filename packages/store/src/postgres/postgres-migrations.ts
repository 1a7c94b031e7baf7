import type { Migration } from "../sqlite/migrations.js";

/**
 * The PostgreSQL schema, applied in order by `setup()` and recorded in `schema_version`; append only, like SQLite's
 * (same tables, same version numbers). Texts that are sorted on use the "C" collation, so every database orders them
 * byte-wise as SQLite does whatever its locale; times and JSON are stored as the text the store wrote, so what is
 * read back (and exported) is byte-identical to what was written.
 */
export const postgresMigrations: readonly Migration[] = [
  {
    version: 1,
    description: "libraries, versions, entries, stats, runs, trajectories, usage, run state",
    sql: `
      CREATE TABLE library_domains (
        domain TEXT COLLATE "C" PRIMARY KEY,
        next_id INTEGER NOT NULL DEFAULT 0,
        next_version INTEGER NOT NULL DEFAULT 1,
        head_version INTEGER,
        created_at TEXT NOT NULL
      );

      CREATE TABLE library_versions (
        domain TEXT COLLATE "C" NOT NULL REFERENCES library_domains(domain),
        version INTEGER NOT NULL,
        parent INTEGER,
        state TEXT NOT NULL CHECK (state IN ('proposed', 'committed', 'rejected')),
        ops TEXT NOT NULL,
        gate TEXT,
        run_id TEXT,
        message TEXT,
        entry_count INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        state_changed_at TEXT,
        PRIMARY KEY (domain, version),
        FOREIGN KEY (domain, parent) REFERENCES library_versions(domain, version)
      );

      CREATE TABLE experience_rows (
        row_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        domain TEXT COLLATE "C" NOT NULL REFERENCES library_domains(domain),
        ordinal INTEGER NOT NULL,
        text TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('candidate', 'active', 'probation', 'archived')),
        scope TEXT,
        conflict_group TEXT,
        provenance TEXT NOT NULL,
        history TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX experience_rows_by_id ON experience_rows(domain, ordinal);

      CREATE TABLE version_entries (
        domain TEXT COLLATE "C" NOT NULL,
        version INTEGER NOT NULL,
        ordinal INTEGER NOT NULL,
        row_id BIGINT NOT NULL REFERENCES experience_rows(row_id),
        PRIMARY KEY (domain, version, ordinal),
        FOREIGN KEY (domain, version) REFERENCES library_versions(domain, version)
      );

      CREATE TABLE experience_stats (
        domain TEXT COLLATE "C" NOT NULL,
        ordinal INTEGER NOT NULL,
        shown INTEGER NOT NULL DEFAULT 0,
        success DOUBLE PRECISION NOT NULL DEFAULT 0,
        sum_delta DOUBLE PRECISION NOT NULL DEFAULT 0,
        last_used_version INTEGER,
        PRIMARY KEY (domain, ordinal)
      );

      -- Run records arrive from workers on other machines, possibly before the run row: no foreign keys to runs.
      CREATE TABLE runs (
        id TEXT COLLATE "C" PRIMARY KEY,
        kind TEXT NOT NULL,
        domain TEXT NOT NULL,
        status TEXT NOT NULL,
        started_at TEXT COLLATE "C" NOT NULL,
        record TEXT NOT NULL
      );
      CREATE INDEX runs_by_start ON runs(started_at);

      CREATE TABLE trajectories (
        id TEXT COLLATE "C" PRIMARY KEY,
        run_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        group_id TEXT COLLATE "C" NOT NULL,
        attempt INTEGER NOT NULL,
        epoch INTEGER,
        step INTEGER,
        reward DOUBLE PRECISION,
        record TEXT NOT NULL,
        stored_at TEXT NOT NULL
      );
      CREATE INDEX trajectories_by_run ON trajectories(run_id, epoch, step, group_id, attempt);
      CREATE INDEX trajectories_by_group ON trajectories(group_id, attempt);
      CREATE INDEX trajectories_by_task ON trajectories(task_id);

      CREATE TABLE usage_records (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id TEXT UNIQUE,
        run_id TEXT NOT NULL,
        role TEXT COLLATE "C" NOT NULL,
        model TEXT COLLATE "C" NOT NULL,
        input_tokens BIGINT NOT NULL,
        cached_input_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        cost_usd DOUBLE PRECISION NOT NULL,
        latency_ms DOUBLE PRECISION NOT NULL,
        at TEXT NOT NULL
      );
      CREATE INDEX usage_by_run ON usage_records(run_id, role);

      CREATE TABLE run_state (
        run_id TEXT NOT NULL,
        key TEXT COLLATE "C" NOT NULL,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (run_id, key)
      );
    `,
  },
  {
    version: 2,
    description: "served selections and their reported outcomes (library service, online learning)",
    sql: `
      CREATE TABLE served_selections (
        selection_id TEXT PRIMARY KEY,
        domain TEXT COLLATE "C" NOT NULL,
        version INTEGER,
        entry_ids TEXT NOT NULL,
        exploration_ids TEXT NOT NULL,
        task TEXT NOT NULL,
        served_at TEXT NOT NULL,
        meta TEXT
      );
      CREATE INDEX served_selections_by_domain ON served_selections(domain, served_at);

      -- One row per reported selection: the UNIQUE selection_id is what makes a report exactly-once.
      CREATE TABLE outcomes (
        seq INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        selection_id TEXT NOT NULL UNIQUE REFERENCES served_selections(selection_id),
        domain TEXT COLLATE "C" NOT NULL,
        version INTEGER,
        reward DOUBLE PRECISION NOT NULL,
        success BOOLEAN NOT NULL,
        feedback TEXT,
        trajectory TEXT,
        summary TEXT,
        cited_ids TEXT NOT NULL,
        reported_at TEXT COLLATE "C" NOT NULL,
        consumed_by TEXT,
        consumed_at TEXT
      );
      CREATE INDEX outcomes_by_domain ON outcomes(domain, seq);
      CREATE INDEX outcomes_by_time ON outcomes(domain, reported_at);
    `,
  },
  {
    version: 3,
    description: "controlled contrasts of entries: per entry (beside its stats) and per library version",
    sql: `
      ALTER TABLE experience_stats ADD COLUMN contrast_n INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE experience_stats ADD COLUMN contrast_sum DOUBLE PRECISION NOT NULL DEFAULT 0;
      ALTER TABLE experience_stats ADD COLUMN contrast_sum_squares DOUBLE PRECISION NOT NULL DEFAULT 0;
      -- The wording the contrast was measured on: a rewritten entry reads no contrast until its new text has one.
      ALTER TABLE experience_stats ADD COLUMN contrast_text TEXT;

      CREATE TABLE experience_version_contrasts (
        domain TEXT COLLATE "C" NOT NULL,
        ordinal INTEGER NOT NULL,
        version INTEGER NOT NULL,
        n INTEGER NOT NULL,
        sum DOUBLE PRECISION NOT NULL,
        sum_squares DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (domain, ordinal, version)
      );
    `,
  },
  {
    version: 4,
    description:
      "online contrasts: what each selection withheld, its task stratum, and the reports awaiting the other arm",
    sql: `
      ALTER TABLE served_selections ADD COLUMN withheld_ids TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE served_selections ADD COLUMN stratum TEXT;

      CREATE TABLE contrast_pending (
        domain TEXT COLLATE "C" NOT NULL,
        ordinal INTEGER NOT NULL,
        stratum TEXT NOT NULL,
        selection_id TEXT NOT NULL,
        shown BOOLEAN NOT NULL,
        reward DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (domain, ordinal, stratum, selection_id)
      );
    `,
  },
  {
    version: 5,
    description:
      "online learners: one row per domain with the learner's lease, its durable state and the pause flag",
    sql: `
      CREATE TABLE online_learners (
        domain TEXT COLLATE "C" PRIMARY KEY,
        holder TEXT,
        host TEXT,
        pid INTEGER,
        lease_acquired_at TEXT,
        lease_renewed_at TEXT,
        lease_expires_ms BIGINT,
        state TEXT,
        state_updated_at TEXT,
        paused BOOLEAN NOT NULL DEFAULT FALSE,
        paused_at TEXT
      );
    `,
  },
  {
    version: 6,
    description:
      "bounded growth: selections past their report deadline, and per-version and per-entry aggregates of compacted rows",
    sql: `
      -- When the expiry sweep marked the selection as never reported within the report deadline ("no report"): it
      -- is counted as such, never as a failure, and a late report of it is refused (never a contrast observation).
      ALTER TABLE served_selections ADD COLUMN expired_at TEXT;
      CREATE INDEX served_selections_awaiting ON served_selections(served_at) WHERE expired_at IS NULL;
      CREATE INDEX served_selections_expired ON served_selections(served_at) WHERE expired_at IS NOT NULL;

      -- What retention compacted, per library version (0: the empty library) and UTC day served: the totals of the
      -- deleted selections and outcomes, so counts read the same after compaction.
      CREATE TABLE outcome_aggregates (
        domain TEXT COLLATE "C" NOT NULL,
        version INTEGER NOT NULL,
        day TEXT COLLATE "C" NOT NULL,
        served INTEGER NOT NULL DEFAULT 0,
        reported INTEGER NOT NULL DEFAULT 0,
        successes INTEGER NOT NULL DEFAULT 0,
        reward_sum DOUBLE PRECISION NOT NULL DEFAULT 0,
        no_report INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (domain, version, day)
      );

      -- Per entry and version (0: none): how often compacted selections showed it (explored: in the exploration arm),
      -- withheld it, and the reports and reward sum of those that showed it.
      CREATE TABLE entry_exposure_aggregates (
        domain TEXT COLLATE "C" NOT NULL,
        entry_id TEXT COLLATE "C" NOT NULL,
        version INTEGER NOT NULL,
        shown INTEGER NOT NULL DEFAULT 0,
        explored INTEGER NOT NULL DEFAULT 0,
        withheld INTEGER NOT NULL DEFAULT 0,
        reported INTEGER NOT NULL DEFAULT 0,
        reward_sum DOUBLE PRECISION NOT NULL DEFAULT 0,
        PRIMARY KEY (domain, entry_id, version)
      );
    `,
  },
  {
    version: 7,
    description:
      "client identity: the client of each selection and outcome, and the clients an operator excluded from learning",
    sql: `
      -- The client a token named (NULL: anonymous). An outcome's is the reporting client's, else its selection's.
      ALTER TABLE served_selections ADD COLUMN client TEXT;
      ALTER TABLE outcomes ADD COLUMN client TEXT;
      CREATE INDEX outcomes_by_client ON outcomes(domain, client);

      -- Clients whose outcomes the learner no longer reads (still stored, still listed by the operator).
      CREATE TABLE client_exclusions (
        domain TEXT COLLATE "C" NOT NULL,
        client TEXT COLLATE "C" NOT NULL,
        excluded_at TEXT NOT NULL,
        reason TEXT,
        PRIMARY KEY (domain, client)
      );
    `,
  },
  {
    version: 8,
    description:
      "leakage fingerprints of runs' task pools, content-addressed (the curator's leakage check reads them)",
    sql: `
      -- One row per distinct pool: the answers, question constants and words of its tasks (JSON), named by the sha256
      -- of that text. A consolidation request carries the digest instead of the pool.
      CREATE TABLE leakage_fingerprints (
        digest TEXT COLLATE "C" PRIMARY KEY,
        tasks INTEGER NOT NULL,
        fingerprints TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 9,
    description:
      "a run's trajectories by step and by group in listing order, and its usage totals kept as calls are recorded (a learning step reads its own without scanning the run)",
    sql: `
      -- With only (run_id, epoch, step, ...) a step's or a group's trajectories were found by scanning the whole run's
      -- index (the planner keeps the listing order): each step got slower as the run stored more.
      CREATE INDEX trajectories_by_run_step ON trajectories(run_id, step, epoch, group_id, attempt, id);
      CREATE INDEX trajectories_by_run_group ON trajectories(run_id, group_id, epoch, step, attempt, id);

      CREATE TABLE usage_totals (
        run_id TEXT NOT NULL,
        role TEXT COLLATE "C" NOT NULL,
        model TEXT COLLATE "C" NOT NULL,
        calls BIGINT NOT NULL,
        input_tokens BIGINT NOT NULL,
        cached_input_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        cost_usd DOUBLE PRECISION NOT NULL,
        latency_ms DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (run_id, role, model)
      );
      INSERT INTO usage_totals
        SELECT run_id, role, model, count(*), sum(input_tokens), sum(cached_input_tokens), sum(output_tokens),
          sum(cost_usd), sum(latency_ms)
        FROM usage_records GROUP BY run_id, role, model;
    `,
  },
];
