// A session writer run as a separate process by the crash and concurrency tests (bundled by
// worker-process.ts): `append LOCATION TAG N` appends N turns (N = 0: until killed), `compact
// LOCATION STOPFILE` compacts until the file STOPFILE exists, `compact-once LOCATION` compacts once
// (reporting `compacted N`, the stretches replaced), `mixed LOCATION TAG` appends three turns
// and compacts, until killed. Each acknowledged append is reported on stdout as `ack ID` once it
// has resolved (durable), `ready` once the session is open, and `step` as each
// compaction step starts (mixed). `read LOCATION` only reads: it reports `items N`, the context's
// items. `background LOCATION TAG DELAY [HANG]` steps a BackgroundSession (BACKGROUND_CONFIG, a summarizer
// answering after DELAY ms) with one turn per step, until killed: `step` when its background run
// starts a summarizer call (call number HANG never answers), and `started` and `ended` as each run
// starts and ends.
import { existsSync, writeSync } from "node:fs";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { BackgroundSession } from "../../src/session/background-session.ts";
import { openSession } from "../../src/session/open.ts";
import { slowSummarizer } from "../support/slow-summarizer.ts";
import { BACKGROUND_CONFIG, SMALL_CONFIG, turn } from "./conversation.ts";

const [mode, location, tag, count] = process.argv.slice(2);
// compact: the third argument is the stop file
const stopFile = tag;
const say = (line: string) => writeSync(1, `${line}\n`);
const summarizer = offlineSummarizer(charCounter());
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const s = await openSession(location, { format: "openai" });
say("ready");
if (mode === "append") {
  const n = Number(count);
  for (let k = 0; n === 0 || k < n; k++) {
    await s.append(turn(`${tag}-${k}`));
    say(`ack ${tag}-${k}`);
  }
} else if (mode === "compact") {
  while (!existsSync(stopFile)) {
    const r = await s.compact(SMALL_CONFIG, { summarizer });
    say(`compacted ${r.stretches.length}`);
    await pause(5);
  }
} else if (mode === "read") {
  say(`items ${(await s.context()).length}`);
} else if (mode === "compact-once") {
  const r = await s.compact(SMALL_CONFIG, { summarizer });
  say(`compacted ${r.stretches.length}`);
} else if (mode === "background") {
  const slow = slowSummarizer(Number(count));
  const batch = slow.summarizeBatch;
  if (batch === undefined) throw new Error("the slow summarizer summarizes batches");
  // `step` as each summarizer call goes out; call number HANG (when given) never answers
  const hang = Number(process.argv[6] ?? "0");
  let calls = 0;
  const out = <T>(answer: () => Promise<T>): Promise<T> => {
    say("step");
    return ++calls === hang ? new Promise<T>(() => {}) : answer();
  };
  const bg = new BackgroundSession(s, BACKGROUND_CONFIG, {
    summarizer: { ...slow, summarize: (r) => out(() => slow.summarize(r)), summarizeBatch: (r) => out(() => batch(r)) },
    onEvent: (e) => {
      if (e.kind !== "waited") say(e.kind);
    },
  });
  for (let k = 0; ; k++) {
    await bg.step(turn(`${tag}-${k}`));
    say(`ack ${tag}-${k}`);
    await pause(5); // the model call
  }
} else if (mode === "mixed") {
  // three turns, then a compaction (reporting `step` as each step starts), and again
  for (let k = 0; ; k += 3) {
    for (let j = k; j < k + 3; j++) {
      await s.append(turn(`${tag}-${j}`));
      say(`ack ${tag}-${j}`);
    }
    await s.compact(SMALL_CONFIG, { summarizer, onProgress: (line) => line.includes("summarizing") && say("step") });
  }
}
await s.close();
