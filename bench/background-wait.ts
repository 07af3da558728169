// `npm run bench:background`: how long an agent waits on compaction, blocking against background
// mode (issue 20, item 5). The generated coding session (bench/loop/sessions.ts) is played as an
// agent owning a ConversationStore: before each model call (each assistant message) it calls
// BackgroundCompaction.beforeStep(), then the model call takes its modelled time while any
// background run goes on, then the reply and its tool results are appended. Summaries come from
// the loopback summarizer of bench:loop (the real OpenAI provider code, its modelled latency).
// Blocking: soft_token_threshold unset (every run is waited for, as compactStore); background:
// soft_token_threshold at a share of the trigger; both under the default strategy
// (clear-then-summarize) and under summarize alone (every run pays summarizer calls). Times are
// wall-clock, scaled down by SCALE and reported in modelled seconds: a check's own CPU time (and
// any pause of the process on a loaded machine) is scaled up with them, so a check under the
// trigger that waited on a run is counted by what it did (BackgroundStep.waited), not by its time. Writes its section into bench/RESULTS.md (`--print` only prints; `--messages <n>` sets the session's length).
import { join } from "node:path";
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { BackgroundCompaction } from "../src/engine/run/background.ts";
import { storeDueBy } from "../src/engine/run/plan.ts";
import { ConversationStore } from "../src/engine/store/store.ts";
import { charCounter } from "../src/model/tokens.ts";
import { openAISummarizer } from "../src/providers/openai-summarizer.ts";
import { codingSession, type Session } from "./loop/sessions.ts";
import { startSummarizerServer } from "./loop/summarizer-server.ts";
import { BACKGROUND_HEADING, writeSection } from "./section-file.ts";
import { fmt, fmtN, table } from "./table.ts";

const SCALE = 100;
const messagesAt = process.argv.indexOf("--messages");
const MESSAGES = messagesAt < 0 ? 1_000 : Number(process.argv[messagesAt + 1]);
const TRIGGER = 30_000;
const SOFT_SHARE = 2 / 3;
/** modelled seconds of one main-model call (the agent's own work, while a background run goes on) */
const MODEL_CALL_S = 3;

/** What one replay measured. */
interface WaitRow {
  readonly mode: string;
  readonly strategy: Strategy;
  readonly modelCalls: number;
  /** modelled seconds the agent spent in beforeStep */
  readonly waitS: number;
  /** checks that waited on a compaction although the context was under the trigger */
  readonly waitsUnderTrigger: number;
  /** the longest check while the context was under the trigger, modelled seconds */
  readonly longestUnderTriggerS: number;
  readonly runs: number;
  readonly summarizerCalls: number;
  /** the largest context sent to the model */
  readonly largestContext: number;
}

type Strategy = "clear-then-summarize" | "summarize";

const pause = (s: number) => new Promise((r) => setTimeout(r, (s * 1000) / SCALE));

async function replayWait(
  session: Session,
  baseUrl: string,
  soft: number | null,
  mode: string,
  strategy: Strategy,
): Promise<WaitRow> {
  const c = parseConfig({
    tokenizer: "chars",
    strategy,
    token_threshold: TRIGGER,
    soft_token_threshold: soft,
    retention_window: 6,
    timeout_ms: 600_000,
  });
  const store = new ConversationStore(charCounter(), []);
  let runs = 0;
  let summarizerCalls = 0;
  const bg = new BackgroundCompaction(store, c, {
    summarizer: openAISummarizer({ baseUrl, timeoutMs: 600_000 }),
    agentModel: "gpt-4o-mini",
    onReport: (r) => {
      runs++;
      summarizerCalls += r.summarizerCalls;
    },
  });
  const row = {
    mode,
    strategy,
    modelCalls: 0,
    waitS: 0,
    waitsUnderTrigger: 0,
    longestUnderTriggerS: 0,
    largestContext: 0,
  };
  for (const m of session.messages) {
    if (m.role === "assistant") {
      const under = storeDueBy(store, c) === "none";
      const t0 = performance.now();
      const step = await bg.beforeStep();
      const s = ((performance.now() - t0) / 1000) * SCALE;
      row.modelCalls++;
      if (row.modelCalls % 100 === 0) process.stderr.write(`  ${mode}: ${row.modelCalls} model calls, ${runs} runs\n`);
      row.waitS += s;
      if (under && step.waited) row.waitsUnderTrigger++;
      if (under) row.longestUnderTriggerS = Math.max(row.longestUnderTriggerS, s);
      row.largestContext = Math.max(row.largestContext, store.totalTokens);
      await pause(MODEL_CALL_S);
    }
    store.append(m);
  }
  await bg.settle();
  return { ...row, runs, summarizerCalls };
}

function section(rows: readonly WaitRow[], command: string): string[] {
  return [
    BACKGROUND_HEADING,
    "",
    `Run ${new Date().toISOString()} with \`${command}\` on Node ${process.version}. The generated coding session of`,
    `${fmtN(MESSAGES)} messages played as an agent owning a ConversationStore, trigger ${fmtN(TRIGGER)} tokens (character counter);`,
    `each model call takes ${MODEL_CALL_S} modelled seconds, summarizer calls the loopback latency model of bench:loop; wall`,
    `time scaled down ${SCALE}x and reported in modelled seconds. Blocking: soft_token_threshold unset; background:`,
    `soft_token_threshold = ${fmt(SOFT_SHARE, 2)} of the trigger. "Waits under the trigger": checks that waited on a compaction`,
    "although the context was under the trigger (what the check did); beside it the longest check under the trigger in",
    "modelled seconds (its CPU time and any pause of the process on this shared machine, scaled up 100x with the rest).",
    "",
    table(
      [
        "mode",
        "strategy",
        "model calls",
        "agent waited (s)",
        "waits under the trigger",
        "longest check under the trigger (s)",
        "runs",
        "summarizer calls",
        "largest context",
      ],
      rows.map((r) => [
        r.mode,
        r.strategy,
        String(r.modelCalls),
        fmt(r.waitS, 1),
        String(r.waitsUnderTrigger),
        fmt(r.longestUnderTriggerS, 2),
        String(r.runs),
        String(r.summarizerCalls),
        String(r.largestContext),
      ]),
    ),
    "",
    "", // a blank line before the next section
  ];
}

async function main(): Promise<void> {
  const server = await startSummarizerServer(SCALE);
  const session = codingSession(MESSAGES);
  const rows: WaitRow[] = [];
  try {
    for (const strategy of ["clear-then-summarize", "summarize"] as const) {
      process.stderr.write(`blocking, ${strategy}...\n`);
      rows.push(await replayWait(session, server.baseUrl, null, "blocking", strategy));
      process.stderr.write(`background, ${strategy}...\n`);
      rows.push(await replayWait(session, server.baseUrl, Math.round(TRIGGER * SOFT_SHARE), "background", strategy));
    }
  } finally {
    await server.close();
  }
  const lines = section(rows, "npm run bench:background");
  process.stdout.write(`${lines.join("\n")}\n`);
  if (!process.argv.includes("--print"))
    writeSection(join(import.meta.dirname, "RESULTS.md"), BACKGROUND_HEADING, lines);
}

await main();
