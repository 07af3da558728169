// openSession: the one entry to a session, by location (a path: the JSONL log backend).

import { InputError } from "../model/errors.ts";
import { LogSession } from "./log-session.ts";
import type { Session, SessionOptions } from "./session.ts";

/**
 * Opens the session at `location` (a file path; created on first use with `options.format`).
 * A corrupt, foreign or newer log is refused with an error naming the line; opening never
 * rewrites anything.
 */
export async function openSession(location: string, options: SessionOptions = {}): Promise<Session> {
  if (typeof location !== "string" || location === "")
    throw new InputError("location", "expected a session location (a file path)");
  return LogSession.open(location, options);
}
