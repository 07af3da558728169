// Memory flush candidates through compactMessages (setting memory_candidates,
// docs/memory-candidates.md): taken by rule from the user messages the run covered, never from
// assistant text, tagged, within the count and byte bounds, handed to onMemoryCandidates.
import { describe, expect, it } from "vitest";
import { cutToBytes, type MemoryCandidate } from "../../src/engine/memory/candidates.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import type { Message } from "../../src/model/message.ts";

const pad = "x".repeat(4000);
let id = 0;
function turn(user: string, assistant: string): Message[] {
  const callId = `m${id++}`;
  return [
    { role: "user", content: user },
    { role: "assistant", content: assistant, toolCalls: [{ id: callId, name: "read_file", arguments: "{}" }] },
    { role: "tool", toolCallId: callId, content: pad },
    { role: "assistant", content: "Done.", toolCalls: [] },
  ];
}
const summarizer = {
  name: "short",
  summarize: async (r: { requiredFacts: readonly string[] }) => `Read files. ${r.requiredFacts.join(" ")}`,
};
const input: Message[] = [
  { role: "system", content: "You are an agent." },
  ...turn("Never push to main. Fix the parser.", "Always check the logs. I'm fine."),
  ...turn("I prefer small commits. We use pnpm in this repo.", "Sure."),
  ...turn("Use vitest instead of jest. Thanks!", "OK."),
  // later turns: the retention window keeps the newest messages, so the run covers the ones above
  ...Array.from({ length: 8 }, (_, k) => turn(`Next: step ${k}.`, "On it.")).flat(),
];
const config = { strategy: "summarize" as const, token_threshold: 2000, tokenizer: "chars" as const };

describe("memory flush candidates", () => {
  it("tags the user's boundaries, preferences and facts, never assistant text, within the bounds", async () => {
    const got: (readonly MemoryCandidate[])[] = [];
    const r = await compactMessages(
      input,
      { ...config, memory_candidates: 3, memory_candidate_bytes: 12 },
      { summarizer, sessionId: "s1", onMemoryCandidates: (c) => got.push(c) },
    );
    expect(r.report.stretches.length).toBeGreaterThan(0);
    const c = r.memoryCandidates ?? [];
    expect(c).toHaveLength(3);
    expect(got).toEqual([c]);
    // strongest first: the boundary (opening marker, 0.9), then the preferences (0.8)
    expect(c.map((x) => [x.tag, x.confidence])).toEqual([
      ["safety_boundary", 0.9],
      ["user_preference", 0.8],
      ["user_preference", 0.8],
    ]);
    expect(c[0].text).toBe("Never push t");
    for (const x of c) {
      expect(new TextEncoder().encode(x.text).length).toBeLessThanOrEqual(12);
      expect(x.sourceSession).toBe("s1");
      expect(input[x.sourceMessages[0]].role).toBe("user");
      expect(x.confidence).toBeGreaterThanOrEqual(0);
      expect(x.confidence).toBeLessThanOrEqual(1);
    }
    // the assistant's "Always check the logs" is never a candidate
    const all = await compactMessages(input, { ...config, memory_candidates: 50 }, { summarizer });
    expect(all.memoryCandidates?.map((x) => x.text)).not.toContain("Always check the logs.");
    expect(all.memoryCandidates?.map((x) => x.tag)).toContain("fact");
  });

  it("cuts at a character boundary and is off by default", async () => {
    expect(cutToBytes("aü", 2)).toBe("a");
    const r = await compactMessages(input, config, { summarizer });
    expect(r.memoryCandidates).toBeUndefined();
  });
});
