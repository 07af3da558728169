// The session backends the suites run against: each gives a fresh location per test.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A backend under test. */
export interface Backend {
  readonly name: string;
  /** a location no session lives at yet */
  fresh(): string;
}

/** The embedded default: a JSONL log file in a temporary directory. */
export const logBackend: Backend = {
  name: "jsonl log",
  fresh: () => join(mkdtempSync(join(tmpdir(), "safecut-session-")), "session.jsonl"),
};

/** Every backend the suites run against. */
export const backends: readonly Backend[] = [logBackend];
