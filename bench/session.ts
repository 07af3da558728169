// Session costs on both backends (`npx tsx bench/session.ts`), each as a ratio against a
// baseline measured in the same run. The JSONL log: one append (lock + write + fsync + reading
// back) against a bare write of the same line plus fsync; the lock alone against one bare
// durable line; the cold open and context() of a 10k- and a 100k-item session against reading
// and parsing the file. PostgreSQL (a throwaway server on loopback, fsync on): one append
// against a bare one-row INSERT; the cold open and context() against a bare SELECT of the
// session's rows. Both: a compaction step (its guarded, durable write included) against the
// same run on an in-memory store, and the throughput of 4 appending and 2 compacting processes
// on one session. Prints the tables and writes them into bench/RESULTS.md (its own section, which
// `npm run bench` keeps); not part of `npm run bench`.
import { randomUUID } from "node:crypto";
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { startPgServer } from "../scripts/pg-server.ts";
import { readConversationFile } from "../src/adapters/conversation-file.ts";
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { compactStore } from "../src/engine/run/compact.ts";
import { ConversationStore } from "../src/engine/store/store.ts";
import { charCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { withLock } from "../src/session/lock.ts";
import { openSession } from "../src/session/open.ts";
import { questionCounts, turn } from "../test/session/conversation.ts";
import { bundleWorker, startWorker } from "../test/session/worker-process.ts";
import { writeSection } from "./section-file.ts";
import { SESSION_HEADING, sessionSection } from "./session-section.ts";

const dir = mkdtempSync(join(tmpdir(), "safecut-session-bench-"));
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const rows: string[][] = [];
const row = (what: string, session: number, base: number, digits = 3) =>
  rows.push([what, session.toFixed(digits), base.toFixed(digits), (session / base).toFixed(2)]);

/** Where a bench's session lives, per backend. */
interface Place {
  readonly name: string;
  at(tag: string): string;
}

/** Rounds the appends and the cold opens are split into, session and baseline alternating (the load drifts). */
const ROUNDS = 5;

async function appendCost(place: Place, n: number, bare: (lines: readonly string[]) => Promise<number>): Promise<void> {
  const s = await openSession(place.at("append"), { format: "openai" });
  const items = Array.from({ length: n }, (_, k) => turn(`a${k}`)[0]);
  const per = n / ROUNDS;
  let session = 0;
  let base = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const mine = items.slice(r * per, (r + 1) * per);
    const t0 = process.hrtime.bigint();
    for (const it of mine) await s.append([it]);
    session += ms(t0);
    base += await bare(mine.map((it) => JSON.stringify(it)));
  }
  await s.close();
  row(`${place.name}: append, one item (${n} appends)`, session / n, base / n);
}

/** A bare durable line per item (write + fsync), in ms for all. */
async function bareLines(texts: readonly string[]): Promise<number> {
  const fd = openSync(join(dir, "bare.jsonl"), "a");
  const t0 = process.hrtime.bigint();
  for (const [k, t] of texts.entries()) {
    writeSync(fd, `{"seq":${k + 1},"t":"item","item":${t}}\n`);
    fsyncSync(fd);
  }
  const t = ms(t0);
  closeSync(fd);
  return t;
}

/** The lock alone (create, write the pid, read it back, remove) against one bare durable line. */
async function lockCost(n: number): Promise<void> {
  const lock = join(dir, "bench.lock");
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < n; k++) withLock(lock, () => k);
  const locked = ms(t0) / n;
  const base = (await bareLines(Array.from({ length: n }, () => "{}"))) / n;
  row(`jsonl log: the lock alone, taken and released (${n} times)`, locked, base);
}

/** A session of n items at `at` (appended in batches). */
async function filled(at: string, n: number): Promise<void> {
  const s = await openSession(at, { format: "openai" });
  const turns = n / 4;
  for (let k = 0; k < turns; k += 250) {
    const batch = [];
    for (let j = k; j < Math.min(turns, k + 250); j++) batch.push(...turn(`c${j}`, 4));
    await s.append(batch);
  }
  await s.close();
}

async function coldContext(place: Place, n: number, bare: (at: string) => Promise<number>): Promise<void> {
  const at = place.at(`ctx${n}`);
  await filled(at, n);
  const sessions: number[] = [];
  const bases: number[] = [];
  // the median of 3 rounds each, session and baseline alternating
  for (let r = 0; r < 3; r++) {
    const t0 = process.hrtime.bigint();
    const fresh = await openSession(at);
    const items = (await fresh.context()).length;
    sessions.push(ms(t0));
    await fresh.close();
    if (items !== n) throw new Error("bench: wrong item count");
    const t1 = process.hrtime.bigint();
    if ((await bare(at)) !== n) throw new Error("bench: wrong baseline count");
    bases.push(ms(t1));
  }
  const mid = (xs: number[]) => xs.sort((a, b) => a - b)[1];
  row(`${place.name}: cold open + context(), ${n} items (median of 3)`, mid(sessions), mid(bases), 1);
}

async function commitLatency(place: Place): Promise<void> {
  // summarize only, every small turn worth a call (the defaults would clear tool results first, and the lawful floor holds runs back)
  const config = parseConfig({
    token_threshold: 600,
    retention_window: 4,
    tokenizer: "chars",
    strategy: "summarize",
    min_stretch_tokens: 0,
  });
  const items = Array.from({ length: 200 }, (_, k) => turn(`s${k}`)).flat();
  const s = await openSession(place.at("commit"), { format: "openai" });
  await s.append(items);
  const summarizer = offlineSummarizer(charCounter());
  let t0 = process.hrtime.bigint();
  const r = await s.compact(config, { summarizer });
  const session = ms(t0) / r.stretches.length;
  await s.close();
  const messages = readConversationFile(`${items.map((i) => JSON.stringify(i)).join("\n")}\n`, {
    format: "openai",
  }).messages;
  const store = new ConversationStore(charCounter(), messages);
  t0 = process.hrtime.bigint();
  const m = await compactStore(store, config, { summarizer });
  const base = ms(t0) / m.stretches.length;
  if (m.stretches.length !== r.stretches.length || m.stretches.length === 0) throw new Error("bench: the runs differ");
  row(`${place.name}: compaction step, ${r.stretches.length} steps (vs the in-memory store)`, session, base);
}

/** 4 appenders (130 turns each) and 2 compactors on one session: items per second, and the steps committed. */
async function throughput(place: Place, bundle: string): Promise<string[]> {
  const at = place.at("many");
  await (await openSession(at, { format: "openai" })).close();
  const stop = join(dir, `stop-${randomUUID()}`);
  const t0 = process.hrtime.bigint();
  const compactors = Array.from({ length: 2 }, () => startWorker(bundle, ["compact", at, stop]));
  const appenders = Array.from({ length: 4 }, (_, k) => startWorker(bundle, ["append", at, `w${k}`, "130"]));
  await Promise.all(appenders.map((w) => w.exited));
  const seconds = ms(t0) / 1000;
  writeFileSync(stop, "");
  await Promise.all(compactors.map((w) => w.exited));
  const s = await openSession(at);
  const counts = questionCounts(await s.history({ full: true }));
  const steps = (await s.compactions()).length;
  await s.close();
  if (counts.size !== 520 || [...counts.values()].some((c) => c !== 1)) throw new Error("bench: lost or duplicated");
  return [place.name, String(4 * 130 * 4), seconds.toFixed(1), ((4 * 130 * 4) / seconds).toFixed(0), String(steps)];
}

/** `--costs`: only the appends and the cold opens, printed, RESULTS.md left as it is (for profiling). */
const costsOnly = process.argv.includes("--costs");
/** `--contention`: only the throughput of 4 appenders and 2 compactors on one session, both backends, printed. */
const contentionOnly = process.argv.includes("--contention");
const COLD_SIZES = costsOnly ? [100_000] : [10_000, 100_000];
const log: Place = { name: "jsonl log", at: (tag) => join(dir, `${tag}.jsonl`) };
const server = await startPgServer({ fsync: true });
const sql = postgres(server.url, { max: 1, onnotice: () => {} });
const pg: Place = { name: "postgresql", at: (tag) => `${server.url}?session=${tag}-${randomUUID()}` };
/** the bare INSERTs' sequence numbers, across rounds */
let bareSeq = 0;
const idOf = (at: string) => new URL(at).searchParams.get("session") as string;
try {
  if (contentionOnly) {
    const bundle = bundleWorker();
    for (const place of [log, pg]) console.log((await throughput(place, bundle)).join(" | "));
  } else await costsAndTheRest();
} finally {
  await sql.end();
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** The appends and cold opens, then (unless --costs) the rest. */
async function costsAndTheRest(): Promise<void> {
  await sql`create table bare (session text, seq bigint, kind text, text text, primary key (session, seq))`;
  await appendCost(log, 500, bareLines);
  await appendCost(pg, 500, async (texts) => {
    const t0 = process.hrtime.bigint();
    for (const text of texts)
      await sql`insert into bare (session, seq, kind, text) values ('b', ${++bareSeq}, 'item', ${text})`;
    return ms(t0);
  });
  await lockCost(500);
  for (const n of COLD_SIZES) {
    await coldContext(log, n, async (at) => {
      const lines = readFileSync(at, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l));
      return lines.length - 1;
    });
    await coldContext(pg, n, async (at) => {
      const fresh = postgres(server.url, { max: 1, onnotice: () => {} });
      const got = await fresh<{ text: string }[]>`
        select text from safecut_entries where session = ${idOf(at)} order by seq`;
      const parsed = got.map((r) => JSON.parse(r.text));
      await fresh.end();
      return parsed.length;
    });
  }
  if (costsOnly) console.log(rows.map((r) => r.join(" | ")).join("\n"));
  else await theRest();
}

/** The compaction steps and the throughput, then the tables printed and written into RESULTS.md. */
async function theRest(): Promise<void> {
  await commitLatency(log);
  await commitLatency(pg);
  const bundle = bundleWorker();
  const many = [await throughput(log, bundle), await throughput(pg, bundle)];
  const tables = [
    "| scenario | session (ms) | baseline (ms) | ratio |",
    "|---|---:|---:|---:|",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
    "",
    "| backend (4 appenders + 2 compactors) | items | seconds | items/s | steps committed |",
    "|---|---:|---:|---:|---:|",
    ...many.map((r) => `| ${r.join(" | ")} |`),
  ];
  console.log(tables.join("\n"));
  const lines = sessionSection(tables, new Date().toISOString());
  writeSection(join(import.meta.dirname, "RESULTS.md"), SESSION_HEADING, lines);
}
