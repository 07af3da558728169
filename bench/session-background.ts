// `npm run bench:session-background`: how long an agent whose history lives in a session waits
// on compaction, blocking against background mode (issue 20, item 5, with sessions), on both
// backends. The generated coding session (bench/loop/sessions.ts) is played as an agent on a
// session of format openai: before each model call (each assistant message) one
// BackgroundSession step appends what came since and compacts as its mode says, then the model
// call takes its modelled time while any background run goes on. Summaries come from the
// loopback summarizer of bench:loop (the real OpenAI provider code, its modelled latency);
// strategy summarize, so that every run pays summarizer calls. Blocking: soft_token_threshold
// unset; background: at 2/3 of the trigger. Times are wall-clock scaled down by SCALE, reported
// in modelled seconds; a step's own session reads and writes (fsync, the server's commits) are
// scaled up with them. Each context the agent sends is billed with prompt caching by bench:loop's
// meters (cache-bill.ts, both provider styles): cache busts (a request that changed what the one
// before it sent) and the main model's input bill, in input-token equivalents, background against
// blocking in the same run. Writes its section into bench/RESULTS.md (`--print` only prints).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPgServer } from "../scripts/pg-server.ts";
import { readOpenAIMessages, writeOpenAIMessages } from "../src/adapters/openai.ts";
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import type { Json } from "../src/model/json.ts";
import { charCounter } from "../src/model/tokens.ts";
import { openAISummarizer } from "../src/providers/openai-summarizer.ts";
import { BackgroundSession, sessionDue } from "../src/session/background-session.ts";
import { openSession } from "../src/session/open.ts";
import { CacheMeter } from "./loop/cache-bill.ts";
import { codingSession } from "./loop/sessions.ts";
import { startSummarizerServer } from "./loop/summarizer-server.ts";
import { SESSION_BACKGROUND_HEADING, writeSection } from "./section-file.ts";
import { fmt, fmtN, table } from "./table.ts";

const SCALE = 100;
const messagesAt = process.argv.indexOf("--messages");
const MESSAGES = messagesAt < 0 ? 600 : Number(process.argv[messagesAt + 1]);
const TRIGGER = 30_000;
const SOFT_SHARE = 2 / 3;
/** modelled seconds of one main-model call */
const MODEL_CALL_S = 3;

/** What one replay measured. */
interface WaitRow {
  readonly backend: string;
  readonly mode: string;
  readonly modelCalls: number;
  /** modelled seconds the agent spent in its steps */
  readonly stepS: number;
  /** modelled seconds of the steps that waited on a compaction (a trigger fired) */
  readonly waitS: number;
  /** steps under the trigger that waited on a compaction */
  readonly waitsUnderTrigger: number;
  readonly runs: number;
  readonly summarizerCalls: number;
  readonly records: number;
  /** cache busts and the main model's input bill (input-token equivalents), per provider style */
  readonly anthropic: CacheMeter["totals"];
  readonly openai: CacheMeter["totals"];
}

const pause = (s: number) => new Promise((r) => setTimeout(r, (s * 1000) / SCALE));

async function replay(backend: string, location: string, baseUrl: string, soft: number | null): Promise<WaitRow> {
  const mode = soft === null ? "blocking" : "background";
  const settings = {
    tokenizer: "chars" as const,
    strategy: "summarize" as const,
    token_threshold: TRIGGER,
    soft_token_threshold: soft,
    retention_window: 6,
    timeout_ms: 600_000,
  };
  const hard = parseConfig({ ...settings, soft_token_threshold: null });
  const session = await openSession(location, { format: "openai" });
  let runs = 0;
  let summarizerCalls = 0;
  const bg = new BackgroundSession(session, settings, {
    summarizer: openAISummarizer({ baseUrl, timeoutMs: 600_000 }),
    agentModel: "gpt-4o-mini",
    counter: charCounter(),
    onReport: (r) => {
      runs++;
      summarizerCalls += r.summarizerCalls;
    },
  });
  const items = writeOpenAIMessages(codingSession(MESSAGES).messages) as Json[];
  const row = { backend, mode, modelCalls: 0, stepS: 0, waitS: 0, waitsUnderTrigger: 0 };
  let sent = 0;
  const anthropic = new CacheMeter("anthropic");
  const openai = new CacheMeter("openai");
  for (let k = 0; k < items.length; k++) {
    const item = items[k] as { role?: string };
    if (item.role !== "assistant") continue;
    await session.append(items.slice(sent, k));
    sent = k;
    const under = (await sessionDue(session, hard, charCounter())) === "none";
    const t0 = performance.now();
    const step = await bg.step([]);
    const s = ((performance.now() - t0) / 1000) * SCALE;
    row.modelCalls++;
    const context = readOpenAIMessages(step.items);
    anthropic.send(context);
    openai.send(context);
    row.stepS += s;
    if (step.waited) row.waitS += s;
    if (under && step.waited) row.waitsUnderTrigger++;
    if (row.modelCalls % 100 === 0) process.stderr.write(`  ${backend} ${mode}: ${row.modelCalls} model calls\n`);
    await pause(MODEL_CALL_S);
  }
  await session.append(items.slice(sent));
  await bg.close();
  const records = (await session.compactions()).length;
  await session.close();
  return { ...row, runs, summarizerCalls, records, anthropic: anthropic.totals, openai: openai.totals };
}

/** The blocking row of `r`'s backend (the baseline of its bill ratios). */
function blockingOf(rows: readonly WaitRow[], r: WaitRow): WaitRow {
  return rows.find((x) => x.backend === r.backend && x.mode === "blocking") ?? r;
}

function section(rows: readonly WaitRow[], command: string): string[] {
  return [
    SESSION_BACKGROUND_HEADING,
    "",
    `Run ${new Date().toISOString()} with \`${command}\` on Node ${process.version}. The generated coding session of`,
    `${fmtN(MESSAGES)} messages played as an agent on a session (format openai), one BackgroundSession step before each`,
    `model call; trigger ${fmtN(TRIGGER)} tokens (character counter), strategy summarize; each model call takes ${MODEL_CALL_S} modelled`,
    "seconds, summarizer calls the loopback latency model of bench:loop; wall time scaled down 100x and reported in",
    "modelled seconds, the steps' own session reads and writes (fsync, the server's commits) scaled up with it.",
    `Blocking: soft_token_threshold unset; background: soft_token_threshold = ${fmt(SOFT_SHARE, 2)} of the trigger. "Waited":`,
    'the time of the steps that waited on a compaction; "in steps": all the time spent in steps. "Busts": requests that',
    "changed a message the request before had sent (prompt cache re-written from there); bills: the main model's input",
    "with prompt caching as bench:loop models it (Anthropic: the agent's breakpoints on the last message, read 0.1x, write",
    "1.25x; OpenAI: automatic prefix caching at 0.1x), in input-token equivalents, and as a ratio to the same backend's",
    "blocking row.",
    "",
    table(
      [
        "backend",
        "mode",
        "model calls",
        "waited (s)",
        "in steps (s)",
        "waits under the trigger",
        "runs",
        "summarizer calls",
        "records",
        "busts (Anthropic)",
        "busts (OpenAI)",
        "bill Anthropic (x blocking)",
        "bill OpenAI (x blocking)",
      ],
      rows.map((r) => [
        r.backend,
        r.mode,
        String(r.modelCalls),
        fmt(r.waitS, 1),
        fmt(r.stepS, 1),
        String(r.waitsUnderTrigger),
        String(r.runs),
        String(r.summarizerCalls),
        String(r.records),
        String(r.anthropic.busts),
        String(r.openai.busts),
        `${fmtN(Math.round(r.anthropic.bill))} (${fmt(r.anthropic.bill / blockingOf(rows, r).anthropic.bill, 2)}x)`,
        `${fmtN(Math.round(r.openai.bill))} (${fmt(r.openai.bill / blockingOf(rows, r).openai.bill, 2)}x)`,
      ]),
    ),
    "",
    "",
  ];
}

async function main(): Promise<void> {
  const server = await startSummarizerServer(SCALE);
  const dir = mkdtempSync(join(tmpdir(), "safecut-session-background-"));
  const pg = await startPgServer({ fsync: true });
  const rows: WaitRow[] = [];
  try {
    for (const soft of [null, Math.round(TRIGGER * SOFT_SHARE)]) {
      const tag = soft === null ? "blocking" : "background";
      process.stderr.write(`jsonl log, ${tag}...\n`);
      rows.push(await replay("jsonl log", join(dir, `${tag}.jsonl`), server.baseUrl, soft));
      process.stderr.write(`postgresql, ${tag}...\n`);
      rows.push(await replay("postgresql", `${pg.url}?session=${tag}`, server.baseUrl, soft));
    }
  } finally {
    await server.close();
    pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const lines = section(rows, "npm run bench:session-background");
  process.stdout.write(`${lines.join("\n")}\n`);
  if (!process.argv.includes("--print"))
    writeSection(join(import.meta.dirname, "RESULTS.md"), SESSION_BACKGROUND_HEADING, lines);
}

await main();
