// The wire helpers' `session` option checks that the session's context starts the caller's array
// and appends the rest as one guarded write (session-option.ts, StoredSession.appendSince), on both
// backends: an append refused when another process appended after the version the check read,
// and the check made again then. Two agent processes (helper-race-worker.ts) step through
// compactOpenAIMessages on one session at once: every call either returns a context that starts
// with the array it was given or refuses it (nothing written); no turn lands behind another
// process's items it never saw. And appendSince itself: refused after another handle's append,
// not after its compaction (a rewrite of the context, not of the history).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openSession } from "../../src/session/open.ts";
import { backends, freshDir, removeFresh } from "./backends.ts";
import { questionCounts, SMALL_CONFIG, turn } from "./conversation.ts";
import { bundleWorker, startWorker } from "./worker-process.ts";

let bundle = "";
beforeAll(() => {
  bundle = bundleWorker("helper-race-worker.ts");
});
afterAll(removeFresh);

const STEPS = 30;

describe.each(backends)("the helpers' check and append, one guarded write: $name", (backend) => {
  it("two agent processes on one session: every call's turn follows the items its check read", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    await s.append(turn("start"));
    const start = join(freshDir(), "start");
    const workers = ["a", "b"].map((tag) => startWorker(bundle, [at, tag, String(STEPS), start]));
    await Promise.all(workers.map((w) => w.ready));
    writeFileSync(start, "");
    const codes = await Promise.all(workers.map((w) => w.exited));
    for (const [k, w] of workers.entries()) expect(codes[k], w.stderr).toBe(0);
    const said = workers.flatMap((w) => w.lines.filter((l) => l !== "ready"));
    expect(said).toHaveLength(2 * STEPS);
    const by = (kind: string) => said.filter((l) => l.startsWith(`${kind} `)).map((l) => l.split(" ")[1]);
    // no call returned a context in which another process's items sit between its check and its turn
    expect(by("interleaved")).toEqual([]);
    // both agents got turns in; every turn a call appended is in the history once, the refused ones never
    for (const w of ["a", "b"]) expect(by("ok").some((id) => id.startsWith(`${w}-`))).toBe(true);
    const counts = questionCounts(await s.history({ full: true }));
    for (const id of by("ok")) expect(counts.get(id)).toBe(1);
    for (const id of by("refused")) expect(counts.has(id)).toBe(false);
    expect(counts.size).toBe(1 + by("ok").length);
    await s.close();
  });

  it("appendSince is refused after another handle's append, not after its compaction", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    const other = await openSession(at);
    await s.append(Array.from({ length: 10 }, (_, k) => turn(`h${k}`)).flat());
    let v = await s.version();
    await other.append(turn("other"));
    expect(await s.appendSince(v, turn("mine"))).toBeUndefined();
    expect(questionCounts(await s.history({ full: true })).has("mine")).toBe(false);
    v = await s.version();
    const r = await other.compact(SMALL_CONFIG, { summarizer: offlineSummarizer(charCounter()) });
    expect(r.stretches.length).toBeGreaterThan(0);
    const compacted = await other.version();
    expect(compacted).toBeGreaterThan(v);
    expect(await s.appendSince(v, turn("mine"))).toBe(compacted + 4);
    expect(questionCounts(await s.history({ full: true })).get("mine")).toBe(1);
    await other.close();
    await s.close();
  });
});
