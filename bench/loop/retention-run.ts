// `npm run bench:retention`: what the context sent still holds of what the agent has seen
// (retention.ts), at every model call of the agent-loop replay (replay.ts), on the example sessions,
// the generated long coding session and the generated evidence session (commands, errors and user
// constraints), at triggers of 15k, 30k and 60k tokens, for the baseline and safecut in the same
// run against the loopback summarizer; writes its section into bench/RESULTS.md. `--ci` replays one
// example and a short evidence session at 15k only and prints without writing.
import { join } from "node:path";
import { SETTINGS } from "../../src/model/settings-table.ts";
import { writeSection } from "../section-file.ts";
import { fmt, fmtRatio, table } from "../table.ts";
import { baselineCompactor, type Compactor, safecutCompactor } from "./compactors.ts";
import { replay } from "./replay.ts";
import { mean, type Retention, RetentionMeter, type Share } from "./retention.ts";
import { codingSession, evidenceSession, exampleSessions } from "./sessions.ts";
import { startSummarizerServer } from "./summarizer-server.ts";

const ci = process.argv.includes("--ci");
const TRIGGERS = ci ? [15_000] : [15_000, 30_000, 60_000];
const GENERATED = ci ? 400 : 3_000;
/** `--only <text>`: replay only the sessions whose name holds it (printed, not written) */
const onlyAt = process.argv.indexOf("--only");
const ONLY = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
/** The section's heading: bench:retention replaces the section under it in RESULTS.md. */
export const RETENTION_HEADING = "## Retention: what the context sent still holds";

const log = (line: string) => process.stderr.write(`${line}\n`);

/** One replay's retention and main-model input. */
interface Row {
  readonly session: string;
  readonly trigger: number;
  readonly compactor: string;
  readonly retention: Retention;
  readonly mainInput: number;
  /** the memory flush candidates of the runs (the ledger variants ask for them), absent for the others */
  readonly candidates?: CandidateTally;
}

/** memory_candidates of the ledger variants: at most this many candidates per compaction. */
const CANDIDATES = 8;
const CANDIDATE_BYTES = SETTINGS.memory_candidate_bytes.default;

/** The candidates a replay's compactions returned: how many, the most in one, and how many broke a bound. */
interface CandidateTally {
  total: number;
  most: number;
  outOfBounds: number;
}

/**
 * `c`, counting the candidates each compaction returns and those out of their bounds: more than
 * CANDIDATES in one run, a text over CANDIDATE_BYTES UTF-8 bytes, a confidence outside [0, 1], or a
 * source that is not a user message of the context the run was given.
 */
function tallied(c: Compactor, t: CandidateTally): Compactor {
  const enc = new TextEncoder();
  return {
    ...c,
    async compact(context) {
      const done = await c.compact(context);
      const got = done.candidates ?? [];
      t.total += got.length;
      t.most = Math.max(t.most, got.length);
      if (got.length > CANDIDATES) t.outOfBounds++;
      for (const x of got)
        if (
          enc.encode(x.text).length > CANDIDATE_BYTES ||
          !(x.confidence >= 0 && x.confidence <= 1) ||
          !x.sourceMessages.every((i) => context[i]?.role === "user")
        )
          t.outOfBounds++;
      return done;
    },
  };
}

const FACETS = ["paths", "commands", "errors", "constraints", "next"] as const;
const pct = (x: number) => `${fmt(100 * x, 0)}%`;
const shareCell = (s: Share) => (s.calls === 0 ? "—" : `${pct(mean(s))} (least ${pct(s.least)})`);

async function main(): Promise<void> {
  const server = await startSummarizerServer(1_000);
  const sessions = ci
    ? [exampleSessions()[0], evidenceSession(GENERATED)]
    : [...exampleSessions(), codingSession(GENERATED), evidenceSession(GENERATED)].filter(
        (s) => ONLY === undefined || s.name.includes(ONLY),
      );
  const rows: Row[] = [];
  try {
    for (const session of sessions)
      for (const trigger of TRIGGERS) {
        const compactors: Compactor[] = [
          baselineCompactor(server.baseUrl, trigger),
          safecutCompactor(server.baseUrl, trigger),
          safecutCompactor(server.baseUrl, trigger, { defaults: true }),
          safecutCompactor(server.baseUrl, trigger, { ledger: true, memoryCandidates: CANDIDATES }),
          safecutCompactor(server.baseUrl, trigger, { defaults: true, ledger: true, memoryCandidates: CANDIDATES }),
        ];
        for (const c of compactors) {
          log(`${session.name}, ${trigger} tokens, ${c.name}...`);
          const meter = new RetentionMeter();
          const tally: CandidateTally = { total: 0, most: 0, outOfBounds: 0 };
          const asks = c.name.includes("ledger");
          const stats = await replay(session, asks ? tallied(c, tally) : c, server, meter);
          rows.push({
            session: session.name,
            trigger,
            compactor: c.name,
            retention: meter.result,
            mainInput: stats.mainInput,
            ...(asks ? { candidates: tally } : {}),
          });
        }
      }
  } finally {
    await server.close();
  }
  const command = `npm run bench:retention -- ${process.argv.slice(2).join(" ")}`.trimEnd().replace(/ --$/, "");
  const lines = section(rows, command);
  process.stdout.write(`${lines.join("\n")}\n`);
  if (!ci && ONLY === undefined) writeSection(join(import.meta.dirname, "../RESULTS.md"), RETENTION_HEADING, lines);
}

/** The section: the method, one row per replay, then each compactor's shares against the baseline's per trigger. */
function section(rows: readonly Row[], command: string): string[] {
  const perRow = table(
    [
      "session",
      "trigger",
      "compactor",
      "(a) paths",
      "(b) commands",
      "(c) open errors",
      "(d) user constraints",
      "(e) next call's identifiers",
      "main-model input",
      "largest ledger (chars)",
      "memory candidates: total, most in one run, out of bounds",
    ],
    rows.map((r) => [
      r.session,
      `${r.trigger / 1000}k`,
      r.compactor,
      ...FACETS.map((f) => shareCell(r.retention[f])),
      `${fmt(r.mainInput / 1000, 1)}k`,
      r.retention.largestLedger === 0 ? "—" : String(r.retention.largestLedger),
      r.candidates === undefined ? "—" : `${r.candidates.total}, ${r.candidates.most}, ${r.candidates.outOfBounds}`,
    ]),
  );
  const against: string[][] = [];
  for (const trigger of [...new Set(rows.map((r) => r.trigger))])
    for (const compactor of [...new Set(rows.map((r) => r.compactor))]) {
      if (compactor === "baseline") continue;
      const mine = rows.filter((r) => r.trigger === trigger && r.compactor === compactor);
      const base = rows.filter((r) => r.trigger === trigger && r.compactor === "baseline");
      // per facet: the calls' shares pooled over the sessions, then against the baseline's
      const pooled = (rs: readonly Row[], f: (typeof FACETS)[number]) => {
        const calls = rs.reduce((n, r) => n + r.retention[f].calls, 0);
        return calls === 0 ? 1 : rs.reduce((n, r) => n + r.retention[f].sum, 0) / calls;
      };
      const input = (rs: readonly Row[]) => rs.reduce((n, r) => n + r.mainInput, 0);
      // a ledger variant against the same compactor without the ledger (today's)
      const without = rows.filter((r) => r.trigger === trigger && r.compactor === compactor.replace(", ledger", ""));
      against.push([
        `${trigger / 1000}k`,
        compactor,
        ...FACETS.map((f) => `${pct(pooled(mine, f))} vs ${pct(pooled(base, f))}`),
        fmtRatio(input(mine) / input(base)),
        compactor.includes(", ledger") ? fmtRatio(input(mine) / input(without)) : "—",
        String(Math.max(0, ...mine.map((r) => r.retention.largestLedger))),
      ]);
    }
  return [
    RETENTION_HEADING,
    "",
    `\`${command}\` (bench/loop/retention-run.ts, measure in bench/loop/retention.ts) replays each session as \`npm run bench:loop\``,
    "does (same loopback summarizer, same compactors) and, at every model call, compares the context sent with everything",
    "the history has shown so far: (a) file paths (a word with slashes and an extension, anywhere), (b) commands (each tool",
    "call: its `command` argument, else its name and argument values; held when a kept tool call or the prose of the context",
    "has it), (c) open errors (error lines of a tool result, open until a later result of the same command has none), (d)",
    'user constraints (sentences of user messages with "never", "always", "do not", "use X not/instead of Y"), and (e) for',
    "each tool call the agent makes next, the paths and symbols of its arguments that appeared earlier in the history. A",
    "cell is the mean share over the calls where something of that facet had been seen (least share of one call in",
    "parentheses; — where nothing was). The evidence session is generated (bench/loop/sessions.ts `evidenceSession`):",
    "shell commands from a small set run again and again (40% fail with a compiler error and exit code 1), test runs that",
    "pass half the time, and user turns that state a constraint one time in five.",
    "",
    `The ledger variants also ask for memory flush candidates (memory_candidates ${CANDIDATES}, memory_candidate_bytes`,
    `${CANDIDATE_BYTES}): the last column counts those the runs returned, the most one run returned, and those out of`,
    `their bounds (more than ${CANDIDATES} in one run, a text over ${CANDIDATE_BYTES} bytes, a confidence outside [0, 1], a source`,
    "that is not a user message of the context the run was given).",
    "",
    perRow,
    "",
    "All sessions pooled per trigger, against the baseline (calls' shares pooled; main-model input as a ratio):",
    "",
    table(
      [
        "trigger",
        "compactor",
        ...FACETS.map((f) => `(${String.fromCharCode(97 + FACETS.indexOf(f))}) ${f}`),
        "main-model input vs baseline",
        "vs the same without the ledger",
        "largest ledger (chars)",
      ],
      against,
    ),
  ];
}

await main();
