// How the CLI shows a run's progress on stderr without flooding it: on a terminal one line
// rewritten in place (at most ten times a second, cleared before the report); elsewhere (a log, a
// pipe) the latest step at most every few seconds. Both start after the first second, so a quick
// run prints none. `--progress` starts at once and, off a terminal, logs every step. Every step is
// in the report itself (its stretches and skipped stretches).

/** Where progress goes and how: the stream, whether it is a terminal, the --progress flag. */
export interface ProgressOptions {
  readonly write: (text: string) => void;
  readonly tty: boolean;
  /** --progress: from the start, and every step off a terminal */
  readonly always: boolean;
  /** terminal width for the updating line (columns; 0: do not cut) */
  readonly columns?: number;
}

/** Milliseconds before a run shows progress (without --progress). */
export const PROGRESS_DELAY_MS = 1000;
/** Milliseconds between two progress lines off a terminal (without --progress). */
export const PROGRESS_LOG_INTERVAL_MS = 5000;
/** Milliseconds between two redraws of the terminal line. */
const REDRAW_INTERVAL_MS = 100;

/** ANSI: carriage return, then erase the whole line. */
const CLEAR_LINE = "\r\x1b[2K";

/** A progress display: `update` with each step's line, `finish` before anything else is printed. */
export interface Progress {
  update(line: string): void;
  finish(): void;
}

/** A progress display writing through `o`; the clock is Date.now. */
export function progressDisplay(o: ProgressOptions): Progress {
  const started = Date.now();
  let last = Number.NEGATIVE_INFINITY; // when a line was last shown
  let drawn = false; // a terminal line is on screen
  return {
    update(line) {
      const now = Date.now();
      if (!o.always && now - started < PROGRESS_DELAY_MS) return;
      const text = `safecut: ${line}`;
      if (!o.tty) {
        if (o.always || now - last >= PROGRESS_LOG_INTERVAL_MS) {
          o.write(`${text}\n`);
          last = now;
        }
        return;
      }
      if (now - last < REDRAW_INTERVAL_MS) return;
      const width = o.columns ?? 0;
      o.write(CLEAR_LINE + (width > 1 && text.length >= width ? `${text.slice(0, width - 2)}…` : text));
      drawn = true;
      last = now;
    },
    finish() {
      if (drawn) o.write(CLEAR_LINE);
      drawn = false;
    },
  };
}
