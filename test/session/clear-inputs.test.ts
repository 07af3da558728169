// clear_inputs on a session, on both backends and in every helper format: the clearing record
// names the calls whose arguments it cleared (the original items stay in the session), the
// context is the one the in-memory run gives, restore brings a result's call arguments back with
// it, the full history stays byte-exact; a record written without the new fields still reads.
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { afterAll, describe, expect, it } from "vitest";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import type { Json, JsonObject } from "../../src/model/json.ts";
import { parseLine } from "../../src/session/log-lines.ts";
import { openSession } from "../../src/session/open.ts";
import type { ClearingRecord, RestoreRecord } from "../../src/session/record.ts";
import { backends, removeFresh } from "./backends.ts";
import { SMALL_CONFIG } from "./conversation.ts";
import { HELPER_KINDS, type HelperKind, helperTurn } from "./helper-turns.ts";
import { sessionLawProblems } from "./session-laws.ts";

afterAll(removeFresh);

/** Clearing only, tool results and their calls' arguments. */
const CLEAR = { ...SMALL_CONFIG, strategy: "clear", clear_at_least: 0, clear_inputs: true } as const;

/** A call's arguments, long enough to be worth clearing. */
const args = (id: string) => JSON.stringify({ path: `src/module-${id}.ts`, lines: [1, 400], pattern: "x".repeat(40) });

/** The text in a call's arguments naming `id` (in JSON text, as an object's field or escaped in an arguments string). */
const named = (id: string) => `src/module-${id}.ts`;

/** The in-memory run's result, as JSON: what the session's context must be after the same clearing. */
async function inMemory(kind: HelperKind, items: Json[]): Promise<Json[]> {
  if (kind === "openai") return JSON.parse(JSON.stringify((await compactOpenAIMessages(items, CLEAR)).messages));
  if (kind === "anthropic")
    // without the cache breakpoint the helper adds for a request: a session's stored context carries none
    return JSON.parse(
      JSON.stringify((await compactAnthropicMessages({ messages: items }, CLEAR, { cacheBreakpoint: false })).messages),
    );
  const r = await compactResponsesItems(items as unknown as ResponseInputItem[], CLEAR);
  return JSON.parse(JSON.stringify(r.input));
}

/** The clearing records among a session's clearings. */
const clearingsOf = (rs: readonly (ClearingRecord | RestoreRecord)[]) =>
  rs.filter((r): r is ClearingRecord => "results" in r);

describe.each(backends)("clear_inputs on a session: $name", (backend) => {
  it.each(HELPER_KINDS)(
    "%s: the record names the cleared calls, the context is the in-memory run's, restore brings the arguments back",
    async (kind) => {
      const at = backend.fresh();
      const items = Array.from({ length: 12 }, (_, i) => helperTurn(kind, `k${i}`, 12, args(`k${i}`))).flat();
      const s = await openSession(at, { format: kind });
      await s.append(items);
      const before = await s.history({ full: true });
      const report = await s.compact(CLEAR);
      const cleared = (report.clearing?.records ?? [])
        .filter((r) => r.arguments !== undefined)
        .map((r) => r.toolCallId);
      expect(cleared.length).toBeGreaterThan(0);
      expect(report.clearing?.inputs).toBe(cleared.length);
      // the record says which calls' arguments were cleared
      const [record] = clearingsOf(await s.clearings());
      expect(record.inputs?.flatMap((x) => x.toolCallIds)).toEqual(cleared);
      // the context is what the in-memory run gives, also as a new process reads it
      const expected = await inMemory(kind, items);
      expect(await s.context()).toEqual(expected);
      const again = await openSession(at);
      expect(await again.context()).toEqual(expected);
      await again.close();
      expect(JSON.stringify(expected)).not.toContain(named(cleared[0].slice("call-".length)));
      expect(before).toContain(named(cleared[0].slice("call-".length)));
      // nothing is deleted
      expect(await s.history({ full: true })).toBe(before);
      expect(await sessionLawProblems(s)).toEqual([]);
      // the first cleared call's result and arguments come back: its items as appended, byte for byte
      const id = cleared[0];
      await s.restore(id);
      const lines = (await s.contextText()).split("\n");
      const own = items.filter((it) => JSON.stringify(it).includes(`"${id}"`));
      expect(own.length).toBeGreaterThan(1);
      for (const it of own) expect(lines).toContain(JSON.stringify(it));
      // the other cleared calls stay cleared
      const other = cleared[1];
      if (other !== undefined) expect(await s.contextText()).not.toContain(named(other.slice("call-".length)));
      const [restore] = (await s.clearings()).filter((r): r is RestoreRecord => !("results" in r));
      expect(restore.call).toBeTypeOf("number");
      expect(await s.history({ full: true })).toBe(before);
      expect(await sessionLawProblems(s)).toEqual([]);
      await s.close();
    },
  );

  it("restoring one call of a message keeps its other cleared calls cleared; restoring both gives the message back verbatim", async () => {
    const at = backend.fresh();
    const turns: JsonObject[] = [];
    for (let i = 0; i < 12; i++) {
      const [question, , , answer] = helperTurn("openai", `p${i}`);
      const call = (x: string) => ({
        id: `call-p${i}${x}`,
        type: "function",
        function: { name: "look", arguments: args(`p${i}${x}`) },
      });
      turns.push(
        question,
        { role: "assistant", content: null, tool_calls: [call("a"), call("b")] },
        { role: "tool", tool_call_id: `call-p${i}a`, content: `result a ${"r ".repeat(40)}` },
        { role: "tool", tool_call_id: `call-p${i}b`, content: `result b ${"r ".repeat(40)}` },
        answer,
      );
    }
    const s = await openSession(at, { format: "openai" });
    await s.append(turns);
    const report = await s.compact(CLEAR);
    const cleared = new Set((report.clearing?.records ?? []).filter((r) => r.arguments).map((r) => r.toolCallId));
    expect(cleared.has("call-p0a") && cleared.has("call-p0b")).toBe(true);
    expect(await s.context()).toEqual(await inMemory("openai", turns));
    await s.restore("call-p0a");
    const partly = (await s.context())[1] as JsonObject;
    expect(JSON.stringify(partly)).toContain(named("p0a"));
    expect(JSON.stringify(partly)).not.toContain(named("p0b"));
    await s.restore("call-p0b");
    expect((await s.contextText()).split("\n")).toContain(JSON.stringify(turns[1]));
    expect(await sessionLawProblems(s)).toEqual([]);
    // a fresh open replays the same
    const again = await openSession(at);
    expect(await again.context()).toEqual(await s.context());
    await again.close();
    await s.close();
  });
});

describe("clearing and restore records", () => {
  const clearing = {
    seq: 49,
    t: "clearing",
    items: 48,
    results: [{ index: 2, toolCallId: "c1", placeholder: "[cleared]", tokensBefore: 90, tokensAfter: 9 }],
    tokensBefore: 900,
    tokensAfter: 819,
    plannedVersion: 48,
    committedVersion: 49,
    decision: "commit",
    time: "2026-01-01T00:00:00.000Z",
  };
  it("a record written without cleared arguments (no `inputs`, no `call`) still reads, with neither field", () => {
    const c = parseLine(JSON.stringify(clearing), "s.jsonl", 50);
    expect(c.kind === "clearing" && "inputs" in c.record).toBe(false);
    const restore = { seq: 50, t: "restore", items: 48, toolCallId: "c1", index: 2, committedVersion: 50, time: "t" };
    const r = parseLine(JSON.stringify(restore), "s.jsonl", 51);
    expect(r.kind === "restore" && "call" in r.record).toBe(false);
  });

  it("reads `inputs` and refuses a malformed one naming the line", () => {
    const inputs = [{ index: 1, toolCallIds: ["c1"], tokensBefore: 40, tokensAfter: 12 }];
    const c = parseLine(JSON.stringify({ ...clearing, inputs }), "s.jsonl", 50);
    expect(c.kind === "clearing" && c.record.inputs).toEqual(inputs);
    expect(() =>
      parseLine(JSON.stringify({ ...clearing, inputs: [{ index: 1, toolCallIds: [] }] }), "s.jsonl", 50),
    ).toThrow(/s\.jsonl line 50.*field "inputs"/);
  });
});
