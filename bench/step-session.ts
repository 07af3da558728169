// The per-step check of an agent whose history is a session (issue 20, item 6), on both backends:
// the JSONL log and PostgreSQL (a throwaway server on loopback, fsync on). A session of 1k and 10k
// OpenAI-format items takes 100 steps through sessionStep, each appending an assistant tool call
// and its result, under a token trigger it never reaches: blocking (soft_token_threshold unset)
// and in background mode (soft_token_threshold set, also never reached). Wall time per step
// (the PostgreSQL server's work is part of a step's cost), median of the samples. The figures of
// main's code before the running counts (session-step-before.json, measured by this bench on that
// code) are shown beside this run's; within this run, the growth from 1k to 10k items.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import type { JsonObject } from "../src/model/json.ts";
import { sessionSettle, sessionStep } from "../src/session/agent-step.ts";
import { openSession } from "../src/session/open.ts";
import { stepItems } from "../test/session/conversation.ts";
import { collect, median, type Repetitions } from "./measure.ts";
import { fmt, fmtN, fmtRatio, table } from "./table.ts";

const STEPS = 100;
const REPS: Repetitions = { warmup: 0, reps: 3 };
/** Appended per write while the history is built (not timed). */
const LOAD_BATCH = 1_000;

const blocking = parseConfig({ token_threshold: 1_000_000_000, tokenizer: "chars" });
const background = parseConfig({
  token_threshold: 1_000_000_000,
  soft_token_threshold: 900_000_000,
  tokenizer: "chars",
});

/** The items of a generated history: turns of a question, a tool call, its result and an answer. */
function historyItems(n: number): JsonObject[] {
  const out: JsonObject[] = [];
  for (let k = 0; out.length < n; k++) {
    out.push(
      { role: "user", content: `question ${k} ${"q ".repeat(12)}` },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: `h-${k}`, type: "function", function: { name: "look", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: `h-${k}`, content: `result ${k} ${"r ".repeat(40)}` },
      { role: "assistant", content: `answer ${k} ${"a ".repeat(20)}` },
    );
  }
  // whole turns: the last item answers, so that the steps' tool calls may follow it
  return out.slice(0, n - (n % 4));
}

/** Milliseconds per step of `STEPS` sessionSteps on a session at `location` holding `n` items. */
async function stepsOn(location: string, n: number, mode: "blocking" | "background"): Promise<number> {
  const s = await openSession(location, { format: "openai" });
  try {
    const items = historyItems(n);
    for (let i = 0; i < items.length; i += LOAD_BATCH) await s.append(items.slice(i, i + LOAD_BATCH));
    const c = mode === "blocking" ? blocking : background;
    // the first step reads the session as an agent resuming it does; not timed
    await sessionStep(s, [], c);
    const samples: number[] = [];
    for (let r = 0; r < REPS.warmup + REPS.reps; r++) {
      collect();
      const t0 = performance.now();
      for (let k = 0; k < STEPS; k++) {
        const step = await sessionStep(s, stepItems(`${r}-${k}`), c);
        if (step.report.dueBefore) throw new Error("the bench's trigger was reached");
      }
      if (r >= REPS.warmup) samples.push((performance.now() - t0) / STEPS);
    }
    await sessionSettle(s);
    return median(samples);
  } finally {
    await s.close();
  }
}

/** One backend and size: ms per step, blocking and in background mode. */
export interface SessionStepRow {
  readonly backend: string;
  readonly n: number;
  readonly blocking: number;
  readonly background: number;
}

/** Measures one backend at one size; `at(tag)` is a fresh location. */
export async function sessionStepRow(backend: string, at: (tag: string) => string, n: number): Promise<SessionStepRow> {
  return {
    backend,
    n,
    blocking: await stepsOn(at(`blocking-${n}`), n, "blocking"),
    background: await stepsOn(at(`background-${n}`), n, "background"),
  };
}

/** main's figures before the running counts, as this bench measured them on that code. */
interface Before {
  readonly commit: string;
  readonly run: string;
  readonly rows: readonly SessionStepRow[];
}

function before(): Before | undefined {
  try {
    return JSON.parse(readFileSync(join(import.meta.dirname, "step-session-before.json"), "utf8")) as Before;
  } catch {
    return undefined;
  }
}

/** The section's lines for the sessions. */
export function sessionStepLines(rows: readonly SessionStepRow[]): string[] {
  const was = before();
  const at = (r: SessionStepRow) => was?.rows.find((b) => b.backend === r.backend && b.n === r.n);
  const ms = (x: number | undefined) => (x === undefined ? "-" : fmt(x, 2));
  const ratio = (a: number | undefined, b: number) => (a === undefined ? "-" : fmtRatio(a / b));
  const growth = (r: SessionStepRow, key: "blocking" | "background") => {
    const small = rows.find((x) => x.backend === r.backend && x.n < r.n);
    return small === undefined ? "-" : fmtRatio(r[key] / small[key]);
  };
  return [
    "Sessions (`sessionStep`), both backends: a session of n OpenAI-format items takes",
    `${STEPS} steps, each appending an assistant tool call and its result, under a token trigger it never reaches`,
    "(character counter); blocking = soft_token_threshold unset, background = soft_token_threshold set (never",
    `reached either). Wall time per step (ms; PostgreSQL's server work is part of it), median of ${REPS.reps} samples of`,
    `${STEPS} steps. "main" = the same bench on main's code before the running counts${was === undefined ? "" : ` (commit ${was.commit.slice(0, 7)}, run ${was.run})`}:`,
    "each step rebuilt the store from the whole session (blocking) or re-read and re-counted the whole context",
    "(background), and re-parsed the context it returned. Ratio = main / now (two runs on one machine); growth =",
    "this run's time per step at 10k / at 1k (the history grows 10x).",
    "",
    table(
      [
        "backend",
        "items",
        "blocking main (ms/step)",
        "blocking now (ms/step)",
        "ratio",
        "growth",
        "background main (ms/step)",
        "background now (ms/step)",
        "ratio",
        "growth",
      ],
      rows.map((r) => [
        r.backend,
        fmtN(r.n),
        ms(at(r)?.blocking),
        ms(r.blocking),
        ratio(at(r)?.blocking, r.blocking),
        growth(r, "blocking"),
        ms(at(r)?.background),
        ms(r.background),
        ratio(at(r)?.background, r.background),
        growth(r, "background"),
      ]),
    ),
    "",
    "",
  ];
}
