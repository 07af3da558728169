// How the CLI shows a run's progress on stderr so that a person can follow it and it never goes
// silent: on a terminal one line rewritten in place (stretches done / planned, calls in flight,
// tokens before → now → target, elapsed time and an estimate of what is left), redrawn every
// second while a call is in flight (a heartbeat), cleared before the report; elsewhere (a log, a
// pipe) the engine's step lines at most every few seconds (every one with --progress) and, while
// nothing else was written for that long, a status line (the same words as the terminal's). Both
// start after the first second, so a quick run prints none. Every step is in the report itself.
import type { RunProgress } from "../engine/run/compact.ts";

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
/** Milliseconds between two progress lines off a terminal (without --progress), and of silence before a status line. */
export const PROGRESS_LOG_INTERVAL_MS = 5000;
/** Milliseconds between two redraws of the terminal line. */
const REDRAW_INTERVAL_MS = 100;
/** Milliseconds between two heartbeats (the terminal line redrawn, a silence checked). */
const HEARTBEAT_MS = 1000;

/** ANSI: carriage return, then erase the whole line. */
const CLEAR_LINE = "\r\x1b[2K";

/** A progress display: `update` with each step's line, `state` with where the run stands, `finish` before anything else is printed. */
export interface Progress {
  update(line: string): void;
  state(s: RunProgress): void;
  finish(): void;
}

/** m:ss (or h:mm:ss) of a number of milliseconds. */
function clock(ms: number): string {
  const t = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = String(t % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** The status words: stretches done / planned, calls in flight, tokens before → now → target, elapsed, an estimate. */
export function statusLine(s: RunProgress, elapsedMs: number): string {
  const calls = s.callsInFlight === 1 ? "1 call in flight" : `${s.callsInFlight} calls in flight`;
  const target = s.target === undefined ? "" : ` → target ${s.target}`;
  // the time left, once a stretch is done: the time per stretch so far, times the stretches left
  const left =
    s.stretchesDone > 0 && s.stretchesPlanned > s.stretchesDone
      ? `, about ${clock((elapsedMs / s.stretchesDone) * (s.stretchesPlanned - s.stretchesDone))} left`
      : "";
  return `${s.stretchesDone}/${s.stretchesPlanned} stretches done, ${calls}, tokens ${s.tokensBefore} → ${s.tokensNow}${target}, ${clock(elapsedMs)} elapsed${left}`;
}

/** A progress display writing through `o`; the clock is Date.now; the heartbeat a timer that does not keep the process alive. */
export function progressDisplay(o: ProgressOptions): Progress {
  const started = Date.now();
  let last = Number.NEGATIVE_INFINITY; // when a line was last shown
  let drawn = false; // a terminal line is on screen
  let status: RunProgress | undefined;
  let step = ""; // the engine's latest step line
  const shown = (now: number) => o.always || now - started >= PROGRESS_DELAY_MS;
  const draw = (now: number) => {
    const words = status === undefined ? step : statusLine(status, now - started);
    if (words === "") return;
    const text = `safecut: ${words}`;
    const width = o.columns ?? 0;
    o.write(CLEAR_LINE + (width > 1 && text.length >= width ? `${text.slice(0, width - 2)}…` : text));
    drawn = true;
    last = now;
  };
  const beat = () => {
    const now = Date.now();
    if (!shown(now)) return;
    if (o.tty) draw(now);
    else if (status !== undefined && now - last >= PROGRESS_LOG_INTERVAL_MS) {
      o.write(`safecut: ${statusLine(status, now - started)}\n`);
      last = now;
    }
  };
  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref();
  return {
    update(line) {
      step = line;
      const now = Date.now();
      if (!shown(now)) return;
      if (!o.tty) {
        if (o.always || now - last >= PROGRESS_LOG_INTERVAL_MS) {
          o.write(`safecut: ${line}\n`);
          last = now;
        }
        return;
      }
      if (now - last >= REDRAW_INTERVAL_MS) draw(now);
    },
    state(s) {
      status = s;
      const now = Date.now();
      if (o.tty && shown(now) && now - last >= REDRAW_INTERVAL_MS) draw(now);
    },
    finish() {
      clearInterval(timer);
      if (drawn && o.tty) o.write(CLEAR_LINE);
      drawn = false;
    },
  };
}
