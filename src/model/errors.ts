// Every failure safecut reports carries a kind, so the CLI can map it to an exit code and a
// library user can tell bad input from a summarizer outage without parsing messages.
import type { CallFailure } from "./call-failure-shape.ts";

/** What went wrong, in the categories the CLI exit codes distinguish. */
export type ErrorKind = "input" | "config" | "usage" | "summarizer" | "internal";

/** An error safecut raises on purpose, with a kind and a human-readable message. */
export class SafecutError extends Error {
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string) {
    super(message);
    this.name = "SafecutError";
    this.kind = kind;
  }
}

/** Bad conversation input; `path` names the JSON location, e.g. `messages[3].role`. */
export class InputError extends SafecutError {
  readonly path: string;
  constructor(path: string, message: string) {
    super("input", path === "" ? message : `${path}: ${message}`);
    this.name = "InputError";
    this.path = path;
  }
}

/** Invalid configuration; `field` is the offending setting, e.g. `retention_window`. */
export class ConfigError extends SafecutError {
  readonly field: string;
  constructor(field: string, message: string) {
    super("config", `${field}: ${message}`);
    this.name = "ConfigError";
    this.field = field;
  }
}

/** A summarizer could not produce an acceptable summary (network, HTTP, format, content). */
export class SummarizerError extends SafecutError {
  /** true when retrying the same request may succeed (429, 5xx, network) */
  readonly transient: boolean;
  /** seconds the server asked us to wait before retrying, when it said so */
  readonly retryAfterSeconds: number | undefined;
  /** the HTTP status of the answer, when the failure is one (the retry policy never retries 400/401/403/404) */
  readonly status: number | undefined;
  /** what failed, as reports name it (provider, host, model, status, the provider's code and message), when the HTTP layer knows */
  readonly call: CallFailure | undefined;
  constructor(message: string, transient = false, retryAfterSeconds?: number, status?: number, call?: CallFailure) {
    super("summarizer", message);
    this.name = "SummarizerError";
    this.transient = transient;
    this.retryAfterSeconds = retryAfterSeconds;
    this.status = status;
    this.call = call;
  }
}

/** A kernel precondition that the engine was about to violate: a bug or ill-formed input. */
export class KernelBoundaryError extends SafecutError {
  constructor(fn: string, requirement: string) {
    super("internal", `kernel boundary: ${fn} requires ${requirement}`);
    this.name = "KernelBoundaryError";
  }
}
