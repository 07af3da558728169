// Pinned content (setting `pin`, docs/pins.md) through compactMessages: a tool result that loaded
// AGENTS.md early in a long session, with a trigger low enough that the run clears or summarizes
// it away, stays verbatim (with its call) when pinned, under each strategy; the run's L15 check
// reads the final context and names what was pinned; a bad pin value is refused naming it.
import { describe, expect, it } from "vitest";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";

const AGENTS = [
  "# AGENTS.md",
  "- Never push to main; open a pull request.",
  "- Always run `npm run lint` before a commit.",
  "- Use pnpm, not npm, for new dependencies.",
  ...Array.from({ length: 40 }, (_, i) => `- rule ${i}: keep module ${i} free of side effects`),
].join("\n");
const pad = (n: number) => Array.from({ length: n }, (_, i) => `  log ${i}: checked chunk ${i}`).join("\n");
let id = 0;
/** One tool step: the call and its result. */
function step(name: string, args: object, result: string): Message[] {
  const callId = `p${id++}`;
  return [
    { role: "assistant", content: "", toolCalls: [{ id: callId, name, arguments: JSON.stringify(args) }] },
    { role: "tool", toolCallId: callId, content: result },
  ];
}
/** A session: the agent reads AGENTS.md first, then works through `turns` turns of reads and test runs. */
function session(turns: number): Message[] {
  const out: Message[] = [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Set up the project and fix the failing tests." },
    ...step("read_file", { path: "/repo/AGENTS.md" }, AGENTS),
  ];
  for (let k = 0; k < turns; k++)
    out.push(
      { role: "user", content: `Turn ${k}: fix src/m${k}/a.ts` },
      ...step("read_file", { path: `src/m${k}/a.ts` }, pad(150)),
      ...step("bash", { command: "npm test" }, `${pad(150)}\nexit code 0`),
      { role: "assistant", content: `Fixed src/m${k}/a.ts.`, toolCalls: [] },
    );
  return out;
}
const base = { token_threshold: 6000, tokenizer: "chars" as const, clear_keep: 2, clear_at_least: 100 };
const held = (ms: readonly Message[]) => ms.some((m) => m.role === "tool" && m.content === AGENTS);
const callKept = (ms: readonly Message[]) =>
  ms.some((m) => m.role === "assistant" && m.toolCalls.some((c) => c.arguments.includes("/repo/AGENTS.md")));

describe("pinned content", () => {
  for (const strategy of ["clear", "summarize", "clear-then-summarize"] as const) {
    it(`${strategy}: without a pin the AGENTS.md result goes; pinned, it stays verbatim with its call`, async () => {
      const input = session(8);
      const plain = await compactMessages(input, { ...base, strategy });
      expect(plain.report.outcome).not.toBe("nothing-to-do");
      expect(held(plain.messages)).toBe(false);

      const pinned = await compactMessages(input, { ...base, strategy, pin: ["file:AGENTS.md"] });
      expect(pinned.report.outcome).not.toBe("nothing-to-do");
      expect(held(pinned.messages)).toBe(true);
      expect(callKept(pinned.messages)).toBe(true);
      // the run still compacted the rest
      expect(pinned.messages).not.toEqual(input);
      const l15 = pinned.report.laws.find((l) => l.law === "L15");
      expect(l15?.ok).toBe(true);
      expect(l15?.detail).toContain("file:AGENTS.md");
      expect(l15?.detail).toContain("1 pinned message");
    });
  }

  it("a text pin keeps every message containing the text, here an assistant note and its results", async () => {
    const input = session(8);
    const note: Message[] = [
      { role: "assistant", content: "REMEMBER: the staging database is read-only.", toolCalls: [] },
    ];
    const withNote = [...input.slice(0, 5), ...note, ...input.slice(5)];
    const plain = await compactMessages(withNote, { ...base, strategy: "summarize" });
    expect(plain.messages.filter((m) => m.content === note[0].content)).toHaveLength(0);
    const r = await compactMessages(withNote, { ...base, strategy: "summarize", pin: ["text:REMEMBER:"] });
    expect(r.messages.filter((m) => m.content === note[0].content)).toHaveLength(1);
    expect(r.report.laws.find((l) => l.law === "L15")?.ok).toBe(true);
  });

  it("a pin value that is neither file: nor text: is refused, naming the setting and the value", async () => {
    await expect(compactMessages(session(1), { ...base, pin: ["AGENTS.md"] })).rejects.toThrow(
      /pin.*file:<path> or text:<text>.*"AGENTS\.md"/,
    );
  });
});
