// Taking the newest item out of a session's context (pop) and emptying it (clear), on every
// backend: the items stay in the history, the context follows the records on every reopen, a
// compaction planned before either is rejected (L9: both rewrite the context), an item summarized
// away is not popped, and a Responses reasoning item goes with the item it travels with.
import { afterAll, describe, expect, it } from "vitest";
import type { Json, JsonObject } from "../../src/model/json.ts";
import type { Summarizer, SummaryRequest } from "../../src/model/summarizer.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { openSession } from "../../src/session/open.ts";
import { backends, removeFresh } from "./backends.ts";
import { SMALL_CONFIG, turn } from "./conversation.ts";

afterAll(removeFresh);

/** Due on four turns of size 20 under character counts. */
const DUE = { ...SMALL_CONFIG, token_threshold: 200 };

describe.each(backends)("pop and clear: $name", (backend) => {
  it("pops the newest item (the history keeps it), again after a reopen, and a call's result can be appended again", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    const items = turn("p1");
    await s.append(items);
    expect(await s.pop()).toEqual([items[3]]);
    expect(await s.pop()).toEqual([items[2]]);
    expect(await s.context()).toEqual(items.slice(0, 2));
    // the call is ongoing again in the context: a new result for it is accepted
    const again = { role: "tool", tool_call_id: "call-p1", content: "second try" };
    await s.append([again]);
    expect(await s.context()).toEqual([...items.slice(0, 2), again]);
    expect((await s.history({ full: true })).trim().split("\n")).toHaveLength(5);
    await s.close();
    const r = await openSession(at);
    expect(await r.context()).toEqual([...items.slice(0, 2), again]);
    await r.close();
  });

  it("clears the context: later items start a new conversation, the history keeps everything", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    await s.append(turn("c1"));
    const v = await s.clear();
    expect(v).toBe(5);
    expect(await s.context()).toEqual([]);
    // nothing to clear: nothing written
    expect(await s.clear()).toBe(5);
    expect(await s.pop()).toBeUndefined();
    await s.append(turn("c2"));
    expect(await s.context()).toEqual(turn("c2"));
    await s.close();
    const r = await openSession(at);
    expect(await r.context()).toEqual(turn("c2"));
    expect((await r.history({ full: true })).match(/question c1/g)).toHaveLength(1);
    await r.close();
  });

  it("rejects a compaction planned before a pop (L9), and pops nothing summarized away", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (const id of ["a", "b", "c", "d"]) await s.append(turn(id, 20));
    const inner = offlineSummarizer(charCounter());
    const popping: Summarizer = {
      name: "offline-popping",
      async summarize(req: SummaryRequest) {
        // another writer pops while the summary is being written
        const other = await openSession(at);
        await other.pop();
        await other.close();
        return inner.summarize(req);
      },
    };
    const report = await s.compact(DUE, { summarizer: popping, counter: charCounter(), maxSteps: 1 });
    expect(report.outcome).not.toBe("compacted");
    expect(report.reason).toMatch(/another writer committed first/);
    expect(await s.compactions()).toEqual([]);
    // compacted for real, with nothing in between; then every kept item pops, the summary does not
    const second = await s.compact(DUE, { counter: charCounter() });
    expect(second.outcome).toBe("compacted");
    const records = await s.compactions();
    expect(records.length).toBeGreaterThan(0);
    const before = await s.context();
    const popped: Json[] = [];
    for (let k = 0; k < 40; k++) {
      const p = await s.pop();
      if (p === undefined) break;
      popped.unshift(...p);
    }
    // what was popped is the context's tail after the last thing not kept as read
    const left = await s.context();
    expect([...left, ...popped]).toEqual(before);
    expect(left.at(-1)).toMatchObject({
      role: "assistant",
      content: expect.stringContaining(records.at(-1)?.summary ?? "?"),
    });
    await s.close();
  });

  it("pops a Responses reasoning item together with the item it travels with", async () => {
    const s = await openSession(backend.fresh(), { format: "responses" });
    const items: JsonObject[] = [
      { type: "message", role: "user", content: "hi" },
      { type: "reasoning", id: "rs_1", summary: [] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "hello" }] },
    ];
    await s.append(items);
    expect(await s.pop()).toEqual(items.slice(1));
    expect(await s.context()).toEqual(items.slice(0, 1));
    await s.close();
  });
});
