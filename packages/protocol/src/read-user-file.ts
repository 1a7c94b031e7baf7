import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { type ErrorCode, TfgrpoError } from "./errors.js";

/** What a user's file is, as a message names it: "dataset", "models config", "library file", "cassette"... */
export interface UserFileOptions {
  /** Named in the message: `cannot read <what>`. */
  what: string;
  /** The error's code; default `invalid_input`. */
  code?: ErrorCode;
  /** The option the path came from (`--train`): the message starts with it, the details name it as `field`. */
  option?: string;
}

/**
 * Why a path is not a file one can read, in words, or null when it is one. Every command that opens a user's file
 * (datasets, configs, libraries, rewards, cassettes) asks this first, so a directory, a missing file or an unreadable
 * one is refused in one line naming the path, instead of failing later with a bare `EISDIR`.
 */
export function unreadableFileReason(file: string): string | null {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(file);
  } catch (error) {
    return describeFileError(error);
  }
  if (stats.isDirectory()) return "it is a directory, not a file";
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    return describeFileError(error);
  }
  return null;
}

/** Throws the one-line error for a path that is not a readable file (`unreadableFileReason`). */
export function requireReadableFile(file: string, options: UserFileOptions): void {
  const reason = unreadableFileReason(file);
  if (reason !== null) throw userFileError(file, reason, options);
}

/** A user's file's bytes; a directory, a missing or an unreadable file is one line naming the path. */
export async function readUserFile(file: string, options: UserFileOptions): Promise<Buffer> {
  requireReadableFile(file, options);
  try {
    return await readFile(file);
  } catch (error) {
    throw userFileError(file, describeFileError(error), options, error);
  }
}

/** A user's file as UTF-8 text (see `readUserFile`). */
export async function readUserText(file: string, options: UserFileOptions): Promise<string> {
  return (await readUserFile(file, options)).toString("utf8");
}

/** The synchronous form of `readUserText`, for the few callers that cannot wait. */
export function readUserTextSync(file: string, options: UserFileOptions): string {
  requireReadableFile(file, options);
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw userFileError(file, describeFileError(error), options, error);
  }
}

function userFileError(file: string, reason: string, options: UserFileOptions, cause?: unknown): TfgrpoError {
  const where = options.option ? `${options.option} ${file}` : file;
  return new TfgrpoError(
    options.code ?? "invalid_input",
    `${where}: cannot read ${options.what}: ${reason}`,
    {
      ...(cause === undefined ? {} : { cause }),
      details: {
        file,
        reason,
        ...(options.option ? { field: options.option.replace(/^-+/, "") } : {}),
      },
    },
  );
}

/** Node's file errors, said for a user; the errno code stays in brackets for a search. */
function describeFileError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "it is a directory, not a file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ENOTDIR":
      return "a part of the path is not a directory";
    default:
      return `${(error as Error)?.message ?? String(error)}`.split("\n")[0]!;
  }
}
