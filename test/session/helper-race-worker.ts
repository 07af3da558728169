// An agent run as a separate process by the helper race test (helper-race.test.ts, bundled by
// worker-process.ts): `LOCATION TAG N STARTFILE` waits for STARTFILE, then takes N steps through
// compactOpenAIMessages with the session, each passing the array the last call returned plus one
// new turn, under a trigger never reached (so the context is the history). For each call it
// reports `ok ID` when the call returned a context that starts with the array it was given (the
// turn landed right after the items the check read), `interleaved ID` when it returned one that
// does not (another process's items landed between the check and the append), `refused ID` when
// the call refused the array (another process appended first: the agent re-reads the context).
import { existsSync, writeSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { InputError } from "../../src/model/errors.ts";
import type { Json } from "../../src/model/json.ts";
import { openSession } from "../../src/session/open.ts";
import { turn } from "./conversation.ts";

const [location, tag, count, startFile] = process.argv.slice(2);
const say = (line: string) => writeSync(1, `${line}\n`);
const NEVER = { token_threshold: 1_000_000_000, tokenizer: "chars" } as const;

const s = await openSession(location, { format: "openai" });
say("ready");
while (!existsSync(startFile)) await new Promise((r) => setTimeout(r, 2));
let held: Json[] = await s.context();
for (let k = 0; k < Number(count); k++) {
  const id = `${tag}-${k}`;
  const given = [...held, ...turn(id)];
  try {
    const r = await compactOpenAIMessages(given, NEVER, { session: s });
    const starts = isDeepStrictEqual(r.messages.slice(0, given.length), given);
    say(`${starts ? "ok" : "interleaved"} ${id}`);
    held = r.messages as Json[];
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    say(`refused ${id}`);
    held = await s.context();
  }
}
await s.close();
