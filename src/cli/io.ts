// Where the CLI reads and writes (CliIO): real streams in production (main.ts's processIO),
// buffers in tests. Only the type, apart from main.ts so that the commands beside it (session,
// inspect, the run's telling) take it without importing main.ts, which imports them.

import type { BeforeRename } from "./outputs.ts";

/** Where the CLI reads and writes; real streams in production, buffers in tests. */
export interface CliIO {
  /** stdin's whole text, decoded as strict UTF-8 (an InputError if it is not UTF-8) */
  readStdin(): Promise<string>;
  /** writes to stdout; a promise settles once the text is handed to the system (a closed stdout ends the process) */
  stdout(text: string): void | Promise<void>;
  stderr(text: string): void;
  /** stderr is a terminal: progress is one line updated in place */
  readonly stderrIsTTY?: boolean;
  /** the terminal's width, to keep the progress line on one row */
  readonly stderrColumns?: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** test seam: runs after an output's temporary file is complete, before it replaces the target */
  readonly beforeRename?: BeforeRename;
}
