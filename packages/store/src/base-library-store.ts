import {
  domainSchema,
  type GateDecision,
  type LibrarySnapshot,
  type LibraryVersion,
  type Operation,
  TfgrpoError,
} from "@tfgrpo/protocol";
import type { ParsedLibraryFile } from "./formats/library-file.js";
import { parseLibraryFile, renderLibrary } from "./formats/library-formats.js";
import { diffSnapshots } from "./library/diff-snapshots.js";
import type {
  ApplyOptions,
  ApplyResult,
  DomainSummary,
  ExportOptions,
  ImportOptions,
  ImportResult,
  LibraryDiff,
  LibraryStore,
  RollbackOptions,
  SetVersionStateOptions,
  StatsDelta,
  VersionContrast,
} from "./library-store.js";

/**
 * What every library backend shares: diff, export and the parsing half of import are built on the primitives, so a
 * new backend implements storage only and behaves the same (the contract suite checks it).
 */
export abstract class BaseLibraryStore implements LibraryStore {
  abstract applyOperations(
    domain: string,
    ops: readonly Operation[],
    options: ApplyOptions,
  ): Promise<ApplyResult>;
  abstract setVersionState(
    domain: string,
    version: number,
    state: "committed" | "rejected",
    gate?: GateDecision,
    options?: SetVersionStateOptions,
  ): Promise<LibraryVersion>;
  abstract getHead(domain: string): Promise<LibrarySnapshot | null>;
  abstract getHeadVersion(domain: string): Promise<number | null>;
  abstract getVersion(domain: string, version: number): Promise<LibrarySnapshot | null>;
  abstract getVersionInfo(domain: string, version: number): Promise<LibraryVersion | null>;
  abstract listVersions(domain: string): Promise<LibraryVersion[]>;
  abstract listDomains(): Promise<DomainSummary[]>;
  abstract rollback(domain: string, toVersion: number, options?: RollbackOptions): Promise<LibraryVersion>;
  abstract updateStats(domain: string, deltas: readonly StatsDelta[]): Promise<number>;
  abstract listVersionContrasts(domain: string, id: string): Promise<VersionContrast[]>;

  /**
   * Writes parsed, fully validated entries as one new committed version on top of the head, keeping the file's ids
   * when the domain has never handed out an id and giving fresh ids otherwise.
   */
  protected abstract writeImport(
    domain: string,
    parsed: ParsedLibraryFile,
    options: ImportOptions & { file: string },
  ): Promise<ImportResult>;

  async diff(domain: string, from: number | null, to: number | null): Promise<LibraryDiff> {
    checkDomain(domain);
    const [a, b] = [await this.requireVersion(domain, from), await this.requireVersion(domain, to)];
    return diffSnapshots(domain, a, b);
  }

  async exportLibrary(domain: string, options: ExportOptions): Promise<string> {
    checkDomain(domain);
    const snapshot =
      options.version === undefined
        ? await this.getHead(domain)
        : await this.getVersion(domain, options.version);
    if (!snapshot) {
      throw new TfgrpoError(
        "not_found",
        options.version === undefined
          ? `library ${domain} has no committed version to export`
          : `library ${domain} has no version ${options.version}`,
        { details: { domain, version: options.version ?? "head" } },
      );
    }
    return renderLibrary(snapshot, options.format);
  }

  async importLibrary(domain: string, options: ImportOptions): Promise<ImportResult> {
    checkDomain(domain);
    const file = options.file ?? "(input)";
    // Parsing validates every entry before anything is written.
    const parsed = parseLibraryFile(options.text, { file, format: options.format ?? "auto" });
    return this.writeImport(domain, parsed, { ...options, file });
  }

  private async requireVersion(domain: string, version: number | null): Promise<LibrarySnapshot | null> {
    if (version === null) return null;
    const snapshot = await this.getVersion(domain, version);
    if (!snapshot) {
      throw new TfgrpoError("not_found", `library ${domain} has no version ${version}`, {
        details: { domain, version },
      });
    }
    return snapshot;
  }
}

export function checkDomain(domain: string): string {
  const parsed = domainSchema.safeParse(domain);
  if (!parsed.success) {
    throw new TfgrpoError("invalid_input", `invalid domain "${domain}": ${parsed.error.issues[0]!.message}`, {
      details: { domain },
    });
  }
  return parsed.data;
}
