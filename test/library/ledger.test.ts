// The evidence ledger through compactMessages (setting `ledger`, docs/ledger.md), with the clear
// strategy (no model): the steps a run replaced land in one ledger message beside the summaries,
// never between a call and its result; carried forward it stays one message within its caps; an
// error closes when the same command later succeeds; off, nothing changes.
import { describe, expect, it } from "vitest";
import { parseLedger } from "../../src/engine/summarize/evidence-ledger.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";

const pad = (n: number) => Array.from({ length: n }, (_, i) => `  log ${i}: checked chunk ${i}`).join("\n");
let id = 0;
/** One tool step: the call and its result. */
function step(name: string, args: object, result: string): Message[] {
  const callId = `c${id++}`;
  return [
    { role: "assistant", content: "", toolCalls: [{ id: callId, name, arguments: JSON.stringify(args) }] },
    { role: "tool", toolCallId: callId, content: result },
  ];
}
function turn(k: number, fails: boolean): Message[] {
  return [
    { role: "user", content: `Turn ${k}: fix src/m${k}/a.ts` },
    ...step("read_file", { path: `src/m${k}/a.ts` }, pad(200)),
    ...step("edit_file", { path: `src/m${k}/b.ts` }, "ok"),
    ...step(
      "bash",
      { command: "npm test" },
      `${pad(200)}\n${fails ? `FAIL src/m${k}/a.test.ts > adds\nexit code 1` : "exit code 0"}`,
    ),
    { role: "assistant", content: "Done.", toolCalls: [] },
  ];
}
const config = {
  strategy: "clear" as const,
  token_threshold: 4000,
  tokenizer: "chars" as const,
  clear_keep: 2,
  clear_at_least: 100,
  ledger: true,
  ledger_files: 3,
  ledger_commands: 4,
};
const ledgersOf = (ms: readonly Message[]) =>
  ms.flatMap((m, i) => (m.role === "summary" && parseLedger(m.content) !== undefined ? [i] : []));

describe("evidence ledger", () => {
  it("holds the replaced steps in one message, beside the summaries, never inside a tool step", async () => {
    const input: Message[] = [{ role: "system", content: "You are an agent." }, ...turn(0, true), ...turn(1, true)];
    const r = await compactMessages(input, config);
    expect(r.report.clearing?.results).toBeGreaterThan(0);
    const at = ledgersOf(r.messages);
    expect(at).toEqual([1]);
    const ledger = parseLedger(r.messages[1].content);
    expect(ledger?.filesRead).toContain("src/m0/a.ts");
    expect(ledger?.commands.some((c) => c.command === "npm test" && c.status === "exit 1")).toBe(true);
    expect(ledger?.errors.map((e) => e.line)).toContain("FAIL src/m0/a.test.ts > adds");
    expect(r.ledger?.commands).toBeGreaterThan(0);
  });

  it("stays one message within its caps across compactions, and closes an error the same command fixed", async () => {
    let context: Message[] = [{ role: "system", content: "You are an agent." }];
    for (let k = 0; k < 12; k++) {
      context = [...context, ...turn(k, k < 10)];
      const r = await compactMessages(context, config);
      context = r.messages;
      expect(ledgersOf(context).length).toBeLessThanOrEqual(1);
      const ledger = parseLedger(context[ledgersOf(context)[0] ?? 0]?.content ?? "");
      if (ledger !== undefined) {
        expect(ledger.filesRead.length).toBeLessThanOrEqual(3);
        expect(ledger.filesModified.length).toBeLessThanOrEqual(3);
        expect(ledger.commands.length).toBeLessThanOrEqual(4);
        expect(ledger.errors.length).toBeLessThanOrEqual(8);
      }
      // the ledger never stands between an assistant's call and its result
      for (const i of ledgersOf(context)) expect(context[i + 1]?.role).not.toBe("tool");
    }
    // two more turns whose npm test passed: once replaced, no npm test error is open
    context = [...context, ...turn(12, false), ...turn(13, false), ...turn(14, false)];
    const last = await compactMessages(context, config);
    const ledger = parseLedger(last.messages[ledgersOf(last.messages)[0]].content);
    expect(ledger?.errors.filter((e) => e.source === "npm test")).toEqual([]);
    expect(ledger?.filesRead[0]).toMatch(/^src\/m1[0-4]\/a\.ts$/);
  });

  it("keeps an error open while its cleared result stays in the context as a placeholder", async () => {
    // the failing npm test is cleared by the first run and enters the ledger; later runs see its
    // placeholder (kept, or cleared steps summarized later): a placeholder is no success of npm test
    const failing = step("bash", { command: "npm test" }, `${pad(200)}\nFAIL src/x/a.test.ts > adds\nexit code 1`);
    const reads = (k: number) => step("read_file", { path: `src/r${k}/a.ts` }, pad(200));
    let context: Message[] = [
      { role: "system", content: "You are an agent." },
      { role: "user", content: "Fix it." },
    ];
    context = [...context, ...failing, ...reads(0), ...reads(1), ...reads(2)];
    for (let k = 3; k < 8; k++) {
      const r = await compactMessages(context, config);
      context = r.messages;
      const ledger = parseLedger(context[ledgersOf(context)[0] ?? 0]?.content ?? "");
      expect(ledger?.errors.map((e) => e.line)).toContain("FAIL src/x/a.test.ts > adds");
      // as a caller that stored the messages without safecut's own fields would pass them back
      context = [
        ...JSON.parse(JSON.stringify(context, (key, v) => (key === "clearedFrom" ? undefined : v))),
        ...reads(k),
      ];
    }
  });

  it("off by default: no ledger message", async () => {
    const input: Message[] = [{ role: "system", content: "You are an agent." }, ...turn(0, true), ...turn(1, true)];
    const r = await compactMessages(input, { ...config, ledger: false });
    expect(ledgersOf(r.messages)).toEqual([]);
    expect(r.ledger).toBeUndefined();
  });
});

describe("ledger facts count as kept for summary validation", () => {
  // a summarizer that writes a short summary keeping only the facts it is asked to keep that are
  // not paths or error lines of the tool steps: with the ledger off those are required, so it is
  // rejected; with the ledger on the ledger holds them and it is accepted
  const terse = {
    name: "terse",
    async summarize(r: { requiredFacts: readonly string[] }) {
      return `Worked on the tests. ${r.requiredFacts.filter((f) => !f.includes("src/") && !f.includes("FAIL")).join(" ")}`;
    },
  };
  const input: Message[] = [
    { role: "system", content: "You are an agent." },
    ...turn(20, true),
    ...turn(21, true),
    ...turn(22, true),
  ];
  const summarize = { ...config, strategy: "summarize" as const, token_threshold: 3000 };

  it("accepts a summary that leaves the ledger's paths and errors to the ledger", async () => {
    const on = await compactMessages(input, summarize, { summarizer: terse });
    expect(on.report.stretches.length).toBeGreaterThan(0);
    const ledger = parseLedger(on.messages[ledgersOf(on.messages)[0]].content);
    expect(ledger?.filesRead).toContain("src/m20/a.ts");
    // npm test failed again later: its newest failure is the open one
    expect(ledger?.errors[0]?.line).toMatch(/^FAIL src\/m2[12]\/a\.test\.ts > adds$/);
    const off = await compactMessages(input, { ...summarize, ledger: false }, { summarizer: terse });
    expect(off.report.stretches).toHaveLength(0);
    expect(off.report.skipped.some((s) => s.reason.includes("dropped required facts"))).toBe(true);
  });
});
