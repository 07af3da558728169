// A session writer run as a separate process by the crash and concurrency tests (bundled by
// worker-bundle.ts): `append LOCATION TAG N` appends N turns (N = 0: until killed), `compact
// LOCATION` compacts until LOCATION.stop exists, `mixed LOCATION TAG` compacts and appends
// a turn, until killed. Each acknowledged append is reported on stdout as `ack ID` once it
// has resolved (durable), and `ready` once the session is open.
import { existsSync, writeSync } from "node:fs";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openSession } from "../../src/session/open.ts";
import { SMALL_CONFIG, turn } from "./conversation.ts";

const [mode, location, tag, count] = process.argv.slice(2);
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
  while (!existsSync(`${location}.stop`)) {
    const r = await s.compact(SMALL_CONFIG, { summarizer });
    say(`compacted ${r.stretches.length}`);
    await pause(5);
  }
} else if (mode === "mixed") {
  // compacting first: a kill soon after the start lands in a compaction
  for (let k = 0; ; k++) {
    await s.compact(SMALL_CONFIG, { summarizer });
    await s.append(turn(`${tag}-${k}`));
    say(`ack ${tag}-${k}`);
  }
}
await s.close();
