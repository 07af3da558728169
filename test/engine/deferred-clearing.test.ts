// Deferred clearing (issue 31, part 4): a background run, judged at soft_token_threshold, whose
// clearing alone would take the conversation to its target (nothing left to summarize) changes
// the prompt prefix for nothing the request needs yet. By the kernel's clearsNow it waits for the
// next summarizing run, unless clearing alone is due: the count is at or over the trigger the
// request itself is judged against (hardTrigger). A blocking run clears as before.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import type { Message } from "../../src/model/message.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { recordingSummarizer } from "../support/recording-summarizer.ts";

/** A user turn, then six tool uses; the first result is about 3,000 tokens, the rest small. */
function conversation(): Message[] {
  const out: Message[] = [
    { role: "system", content: "go" },
    { role: "user", content: "fix the build" },
  ];
  for (let k = 0; k < 6; k++) {
    out.push({
      role: "assistant",
      content: "",
      toolCalls: [{ id: `c${k}`, name: "read_file", arguments: `{"n":${k}}` }],
    });
    out.push({ role: "tool", toolCallId: `c${k}`, content: k === 0 ? "x".repeat(12_000) : `small ${k}` });
  }
  out.push({ role: "assistant", content: "done", toolCalls: [] });
  return out;
}

// the run's own trigger: a background run's soft threshold (its configuration as softConfig builds it)
const soft = parseConfig({ tokenizer: "chars", token_threshold: 2_800, retention_window: 4 });

async function run(hardTrigger: number | undefined) {
  const store = new ConversationStore(charCounter(), conversation());
  const before = store.totalTokens;
  const { summarizer, calls } = recordingSummarizer(() => "a summary");
  const report = await compactStore(store, soft, {
    summarizer,
    ...(hardTrigger === undefined ? {} : { hardTrigger }),
  });
  return { store, before, report, calls: calls.single.length + calls.batch.length };
}

describe("deferred clearing", () => {
  it("a background run whose clearing alone would do waits under the hard trigger", async () => {
    const r = await run(4_000);
    expect(r.before).toBeGreaterThan(2_800);
    expect(r.before).toBeLessThan(4_000);
    // before: the 3,000-token result cleared at once (a prompt-cache re-write the request did not need)
    expect(r.store.messages).toEqual(conversation());
    expect(r.calls).toBe(0);
    expect(r.report.reason).toContain("clearing deferred to ride with the next summarizing run");
  });

  it("clearing alone is due at or over the hard trigger: it clears", async () => {
    const r = await run(3_000);
    expect(r.before).toBeGreaterThanOrEqual(3_000);
    expect(r.report.clearing?.results).toBe(1);
    expect(r.store.totalTokens).toBeLessThan(r.before - 2_000);
  });

  it("a blocking run (no hard trigger of its own) clears as before", async () => {
    const r = await run(undefined);
    expect(r.report.clearing?.results).toBe(1);
    expect(r.calls).toBe(0);
  });
});
