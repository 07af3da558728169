// A worker of a session in background mode, run as a separate process by
// background-session.test.ts (bundled by worker-process.ts): `loop LOCATION TAG N DELAY HARD SOFT
// WAIT` appends N turns, one BackgroundSession step each (halfway, it waits for its own run), with a
// summarizer that answers after DELAY ms; `hold LOCATION DELAY HARD SOFT` takes one step (the session is over the soft threshold:
// it starts a background run) and waits for the run. Each acknowledged step is reported on stdout
// as `ack ID`; the background session's events as `started T`, `ended T` (T: Date.now()) and
// `waited MS other|own`; `ready` once the session is open.
import { writeSync } from "node:fs";
import { BackgroundSession } from "../../src/session/background-session.ts";
import { openSession } from "../../src/session/open.ts";
import { slowSummarizer } from "../support/slow-summarizer.ts";
import { SMALL_CONFIG, turn } from "./conversation.ts";

const [mode, location, ...rest] = process.argv.slice(2);
const say = (line: string) => writeSync(1, `${line}\n`);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const [tag, count, delay, hard, soft, wait] =
  mode === "loop" ? rest : ["", "0", rest[0], rest[1], rest[2], String(Number.MAX_SAFE_INTEGER)];
const s = await openSession(location, { format: "openai" });
const bg = new BackgroundSession(
  s,
  { ...SMALL_CONFIG, token_threshold: Number(hard), soft_token_threshold: Number(soft) },
  {
    summarizer: slowSummarizer(Number(delay)),
    leaseWaitMs: Number(wait),
    // a loop's runs end after a few steps (the session never gets under the target here), so
    // that the lease passes between the workers
    ...(mode === "loop" ? { maxSteps: 3 } : {}),
    onEvent: (e) => {
      if (e.kind === "waited") say(`waited ${Math.round(e.ms)} ${e.other ? "other" : "own"}`);
      else say(`${e.kind} ${Date.now()}`);
    },
  },
);
say("ready");
if (mode === "loop") {
  for (let k = 0; k < Number(count); k++) {
    await bg.step(turn(`${tag}-${k}`));
    say(`ack ${tag}-${k}`);
    // halfway, the agent waits for its own run if one is in flight (as one pausing for its user
    // would): the turns after it then meet a session that is due again with the lease free, so
    // the session sees a later run however fast the appends outran the first one
    if (k === Math.floor(Number(count) / 2)) await bg.settle();
    await pause(5); // the model call
  }
} else {
  const step = await bg.step([]);
  say(step.started ? "holding" : "not started");
}
await bg.close();
await s.close();
