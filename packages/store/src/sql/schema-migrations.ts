/**
 * The schema migrations of every SQL backend, applied in order by `setup()` (`migrateSchema`) and recorded in
 * `schema_version`. Append only: a released migration is never edited, a change is a new entry, on every backend at
 * once (same tables, same version numbers); a backend differs only in its column types (`SchemaTypes`).
 *
 * Libraries are stored copy-on-write by reference: `experience_rows` holds immutable entry contents (a new row only
 * when an entry changes) and `version_entries` maps every version to the full set of rows it contains. Reading any
 * version is one indexed range scan; writing a version copies the parent's references (a few bytes per entry) and adds
 * rows only for what changed.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** A dialect's column types: what the same table is declared with in each backend. */
export interface SchemaTypes {
  /** Text that is sorted or compared on: byte-wise in every database whatever its locale. */
  readonly sortedText: string;
  readonly real: string;
  /** An integer past 2^31 (token counts, milliseconds, row ids). */
  readonly bigint: string;
  readonly boolean: string;
  /** `boolean`'s false, as a column default. */
  readonly false: string;
  /** A 64-bit row id the database assigns. */
  readonly rowId: string;
  /** An id the database assigns in increasing order and never reuses (outcomes are read in this order). */
  readonly sequence: string;
  /** After the parentheses of a table that is only ever read by its primary key (SQLite: WITHOUT ROWID). */
  readonly keyedTable: string;
}

/** The migrations in one dialect. */
export const schemaMigrations = (t: SchemaTypes): readonly Migration[] => [
  {
    version: 1,
    description: "libraries, versions, entries, stats, runs, trajectories, usage, run state",
    sql: `
      CREATE TABLE library_domains (
        domain ${t.sortedText} PRIMARY KEY,
        next_id INTEGER NOT NULL DEFAULT 0,
        next_version INTEGER NOT NULL DEFAULT 1,
        head_version INTEGER,
        created_at TEXT NOT NULL
      );

      CREATE TABLE library_versions (
        domain ${t.sortedText} NOT NULL REFERENCES library_domains(domain),
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
        row_id ${t.rowId},
        domain ${t.sortedText} NOT NULL REFERENCES library_domains(domain),
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
        domain ${t.sortedText} NOT NULL,
        version INTEGER NOT NULL,
        ordinal INTEGER NOT NULL,
        row_id ${t.bigint} NOT NULL REFERENCES experience_rows(row_id),
        PRIMARY KEY (domain, version, ordinal),
        FOREIGN KEY (domain, version) REFERENCES library_versions(domain, version)
      )${t.keyedTable};

      CREATE TABLE experience_stats (
        domain ${t.sortedText} NOT NULL,
        ordinal INTEGER NOT NULL,
        shown INTEGER NOT NULL DEFAULT 0,
        success ${t.real} NOT NULL DEFAULT 0,
        sum_delta ${t.real} NOT NULL DEFAULT 0,
        last_used_version INTEGER,
        PRIMARY KEY (domain, ordinal)
      )${t.keyedTable};

      -- Run records arrive from workers on other machines, possibly before the run row: no foreign keys to runs.
      CREATE TABLE runs (
        id ${t.sortedText} PRIMARY KEY,
        kind TEXT NOT NULL,
        domain TEXT NOT NULL,
        status TEXT NOT NULL,
        started_at ${t.sortedText} NOT NULL,
        record TEXT NOT NULL
      );
      CREATE INDEX runs_by_start ON runs(started_at);

      CREATE TABLE trajectories (
        id ${t.sortedText} PRIMARY KEY,
        run_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        group_id ${t.sortedText} NOT NULL,
        attempt INTEGER NOT NULL,
        epoch INTEGER,
        step INTEGER,
        reward ${t.real},
        record TEXT NOT NULL,
        stored_at TEXT NOT NULL
      );
      CREATE INDEX trajectories_by_run ON trajectories(run_id, epoch, step, group_id, attempt);
      CREATE INDEX trajectories_by_group ON trajectories(group_id, attempt);
      CREATE INDEX trajectories_by_task ON trajectories(task_id);

      CREATE TABLE usage_records (
        seq ${t.rowId},
        id TEXT UNIQUE,
        run_id TEXT NOT NULL,
        role ${t.sortedText} NOT NULL,
        model ${t.sortedText} NOT NULL,
        input_tokens ${t.bigint} NOT NULL,
        cached_input_tokens ${t.bigint} NOT NULL,
        output_tokens ${t.bigint} NOT NULL,
        cost_usd ${t.real} NOT NULL,
        latency_ms ${t.real} NOT NULL,
        at TEXT NOT NULL
      );
      CREATE INDEX usage_by_run ON usage_records(run_id, role);

      CREATE TABLE run_state (
        run_id TEXT NOT NULL,
        key ${t.sortedText} NOT NULL,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (run_id, key)
      )${t.keyedTable};
    `,
  },
  {
    version: 2,
    description: "served selections and their reported outcomes (library service, online learning)",
    sql: `
      CREATE TABLE served_selections (
        selection_id TEXT PRIMARY KEY,
        domain ${t.sortedText} NOT NULL,
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
        seq ${t.sequence},
        selection_id TEXT NOT NULL UNIQUE REFERENCES served_selections(selection_id),
        domain ${t.sortedText} NOT NULL,
        version INTEGER,
        reward ${t.real} NOT NULL,
        success ${t.boolean} NOT NULL,
        feedback TEXT,
        trajectory TEXT,
        summary TEXT,
        cited_ids TEXT NOT NULL,
        reported_at ${t.sortedText} NOT NULL,
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
      ALTER TABLE experience_stats ADD COLUMN contrast_sum ${t.real} NOT NULL DEFAULT 0;
      ALTER TABLE experience_stats ADD COLUMN contrast_sum_squares ${t.real} NOT NULL DEFAULT 0;
      -- The wording the contrast was measured on: a rewritten entry reads no contrast until its new text has one.
      ALTER TABLE experience_stats ADD COLUMN contrast_text TEXT;

      -- The same counters split by the library version the rollouts read (an entry may help under one library and
      -- not under another).
      CREATE TABLE experience_version_contrasts (
        domain ${t.sortedText} NOT NULL,
        ordinal INTEGER NOT NULL,
        version INTEGER NOT NULL,
        n INTEGER NOT NULL,
        sum ${t.real} NOT NULL,
        sum_squares ${t.real} NOT NULL,
        PRIMARY KEY (domain, ordinal, version)
      )${t.keyedTable};
    `,
  },
  {
    version: 4,
    description:
      "online contrasts: what each selection withheld, its task stratum, and the reports awaiting the other arm",
    sql: `
      -- The varied entries a selection withheld (its shown ones are exploration_ids), and the stratum of similar tasks
      -- its outcome is compared within (NULL: served before online contrasts, or with exposure off).
      ALTER TABLE served_selections ADD COLUMN withheld_ids TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE served_selections ADD COLUMN stratum TEXT;

      -- Reported outcomes of one arm of an entry in one stratum, waiting for a report of the other arm; a pair of arms
      -- becomes one contrast and its rows are deleted in the same transaction (each report counts once).
      CREATE TABLE contrast_pending (
        domain ${t.sortedText} NOT NULL,
        ordinal INTEGER NOT NULL,
        stratum TEXT NOT NULL,
        selection_id TEXT NOT NULL,
        shown ${t.boolean} NOT NULL,
        reward ${t.real} NOT NULL,
        PRIMARY KEY (domain, ordinal, stratum, selection_id)
      )${t.keyedTable};
    `,
  },
  {
    version: 5,
    description:
      "online learners: one row per domain with the learner's lease, its durable state and the pause flag",
    sql: `
      -- One learner per domain learns from every stored outcome: the one holding this row's lease (compare-and-set
      -- on holder and expiry). Its state (cursor, trigger window, canary, probation) is JSON only the holder writes.
      CREATE TABLE online_learners (
        domain ${t.sortedText} PRIMARY KEY,
        holder TEXT,
        host TEXT,
        pid INTEGER,
        lease_acquired_at TEXT,
        lease_renewed_at TEXT,
        lease_expires_ms ${t.bigint},
        state TEXT,
        state_updated_at TEXT,
        paused ${t.boolean} NOT NULL DEFAULT ${t.false},
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
        domain ${t.sortedText} NOT NULL,
        version INTEGER NOT NULL,
        day ${t.sortedText} NOT NULL,
        served INTEGER NOT NULL DEFAULT 0,
        reported INTEGER NOT NULL DEFAULT 0,
        successes INTEGER NOT NULL DEFAULT 0,
        reward_sum ${t.real} NOT NULL DEFAULT 0,
        no_report INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (domain, version, day)
      )${t.keyedTable};

      -- Per entry and version (0: none): how often compacted selections showed it (explored: in the exploration arm),
      -- withheld it, and the reports and reward sum of those that showed it.
      CREATE TABLE entry_exposure_aggregates (
        domain ${t.sortedText} NOT NULL,
        entry_id ${t.sortedText} NOT NULL,
        version INTEGER NOT NULL,
        shown INTEGER NOT NULL DEFAULT 0,
        explored INTEGER NOT NULL DEFAULT 0,
        withheld INTEGER NOT NULL DEFAULT 0,
        reported INTEGER NOT NULL DEFAULT 0,
        reward_sum ${t.real} NOT NULL DEFAULT 0,
        PRIMARY KEY (domain, entry_id, version)
      )${t.keyedTable};
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
        domain ${t.sortedText} NOT NULL,
        client ${t.sortedText} NOT NULL,
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
        digest ${t.sortedText} PRIMARY KEY,
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

      -- A run's usage summed as it is recorded: a step reads its run's totals without summing every call so far.
      CREATE TABLE usage_totals (
        run_id TEXT NOT NULL,
        role ${t.sortedText} NOT NULL,
        model ${t.sortedText} NOT NULL,
        calls ${t.bigint} NOT NULL,
        input_tokens ${t.bigint} NOT NULL,
        cached_input_tokens ${t.bigint} NOT NULL,
        output_tokens ${t.bigint} NOT NULL,
        cost_usd ${t.real} NOT NULL,
        latency_ms ${t.real} NOT NULL,
        PRIMARY KEY (run_id, role, model)
      )${t.keyedTable};
      INSERT INTO usage_totals
        SELECT run_id, role, model, count(*), sum(input_tokens), sum(cached_input_tokens), sum(output_tokens),
          sum(cost_usd), sum(latency_ms)
        FROM usage_records GROUP BY run_id, role, model;
    `,
  },
];
