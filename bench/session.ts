// Session log costs (`npx tsx bench/session.ts`), each as a ratio against a baseline measured in
// the same run: one append (lock + write + fsync + reading back) against a bare write of the
// same line plus fsync; the lock alone against one bare durable line; the cold open and
// context() of a 10k- and a 100k-item session against reading and parsing the file; a
// compaction step on the session (its guarded, durable write included) against the same run on
// an in-memory store. Prints a Markdown table; not part of `npm run bench` (bench/RESULTS.md).
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConversationFile } from "../src/adapters/conversation-file.ts";
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { compactStore } from "../src/engine/run/compact.ts";
import { ConversationStore } from "../src/engine/store/store.ts";
import { charCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { withLock } from "../src/session/lock.ts";
import { openSession } from "../src/session/open.ts";
import { turn } from "../test/session/conversation.ts";

const dir = mkdtempSync(join(tmpdir(), "safecut-session-bench-"));
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const rows: string[][] = [];

async function appendCost(n: number): Promise<void> {
  const at = join(dir, "append.jsonl");
  const s = await openSession(at, { format: "openai" });
  const items = Array.from({ length: n }, (_, k) => turn(`a${k}`)[0]);
  let t0 = process.hrtime.bigint();
  for (const it of items) await s.append([it]);
  const session = ms(t0) / n;
  await s.close();
  const bare = join(dir, "bare.jsonl");
  const fd = openSync(bare, "a");
  t0 = process.hrtime.bigint();
  for (const [k, it] of items.entries()) {
    writeSync(fd, `{"seq":${k + 1},"t":"item","item":${JSON.stringify(it)}}\n`);
    fsyncSync(fd);
  }
  const base = ms(t0) / n;
  closeSync(fd);
  rows.push([`append, one item (${n} appends)`, session.toFixed(3), base.toFixed(3), (session / base).toFixed(2)]);
}

/** The lock alone (create, write the pid, read it back, remove) against one bare durable line. */
function lockCost(n: number): void {
  const lock = join(dir, "bench.lock");
  let t0 = process.hrtime.bigint();
  for (let k = 0; k < n; k++) withLock(lock, () => k);
  const locked = ms(t0) / n;
  const fd = openSync(join(dir, "bare-lock.jsonl"), "a");
  t0 = process.hrtime.bigint();
  for (let k = 0; k < n; k++) {
    writeSync(fd, `{"seq":${k + 1}}\n`);
    fsyncSync(fd);
  }
  const base = ms(t0) / n;
  closeSync(fd);
  rows.push([
    `the lock alone, taken and released (${n} times)`,
    locked.toFixed(3),
    base.toFixed(3),
    (locked / base).toFixed(2),
  ]);
}

async function coldContext(n: number): Promise<void> {
  const at = join(dir, `ctx${n}.jsonl`);
  const s = await openSession(at, { format: "openai" });
  const turns = n / 4;
  for (let k = 0; k < turns; k += 250) {
    const batch = [];
    for (let j = k; j < Math.min(turns, k + 250); j++) batch.push(...turn(`c${j}`, 4));
    await s.append(batch);
  }
  await s.close();
  let t0 = process.hrtime.bigint();
  const fresh = await openSession(at);
  const items = (await fresh.context()).length;
  const session = ms(t0);
  await fresh.close();
  t0 = process.hrtime.bigint();
  const lines = readFileSync(at, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
  const base = ms(t0);
  if (items !== n || lines.length !== n + 1) throw new Error("bench: wrong item count");
  rows.push([
    `cold open + context(), ${n} items (vs reading and parsing the file)`,
    session.toFixed(1),
    base.toFixed(1),
    (session / base).toFixed(2),
  ]);
}

async function commitLatency(): Promise<void> {
  // summarizing: a session does not record a clearing run yet (its store records splices only)
  const config = parseConfig({ token_threshold: 600, retention_window: 4, tokenizer: "chars", strategy: "summarize" });
  const items = Array.from({ length: 200 }, (_, k) => turn(`s${k}`)).flat();
  const at = join(dir, "commit.jsonl");
  const s = await openSession(at, { format: "openai" });
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
  if (m.stretches.length !== r.stretches.length) throw new Error("bench: the runs differ");
  rows.push([
    `compaction step, ${r.stretches.length} steps (vs the in-memory store)`,
    session.toFixed(3),
    base.toFixed(3),
    (session / base).toFixed(2),
  ]);
}

await appendCost(500);
lockCost(500);
await coldContext(10_000);
await coldContext(100_000);
await commitLatency();
rmSync(dir, { recursive: true, force: true });
console.log("| scenario | session (ms) | baseline (ms) | ratio |\n|---|---:|---:|---:|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
