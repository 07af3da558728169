// The per-step check of an agent on a session costs what changed (issue 20, item 6), on both
// backends: a step under the trigger counts the tokens of the items appended since the last
// step, not of the whole history (a counting token counter says how many messages were
// counted); the running counts follow appends and a compaction by another process (real
// processes), and are kept per counter; the context handed out follows the session as a fresh
// open reads it, in every format, across compactions, clearings and items read with the next.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import { itemMapOf } from "../../src/engine/run/item-map.ts";
import type { Json } from "../../src/model/json.ts";
import { messageTokens, type TokenCounter } from "../../src/model/tokens.ts";
import { offlineSummarizer } from "../../src/providers/offline-summarizer.ts";
import { sessionSettle, sessionStep } from "../../src/session/agent-step.ts";
import { openSession } from "../../src/session/open.ts";
import type { Session } from "../../src/session/session.ts";
import { countingCounter } from "../support/counting-counter.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";
import { modelMessagesConversation, responsesConversation } from "../support/generate-sdk.ts";
import { backends, removeFresh } from "./backends.ts";
import { stepItems, turn } from "./conversation.ts";
import { bundleWorker, startWorker } from "./worker-process.ts";

let bundle = "";
beforeAll(() => {
  bundle = bundleWorker();
});
afterAll(removeFresh);

/** The counts of a session's context read from scratch by a new open (as a fresh process would). */
async function freshCounts(at: string, counter: TokenCounter) {
  const s = await openSession(at);
  const text = await s.contextText();
  const context = await s.context();
  // bytes as a fresh open counts them (a summary replayed from its record is counted by the
  // engine's summary rule, not by the JSON it is written as: the two differ by its framing allowance)
  const { bytes } = await s.contextCounts(countingCounter());
  await s.close();
  const messages = text === "" ? [] : readConversationFile(text, { format: s.format }).messages;
  return {
    counts: {
      tokens: messages.reduce((t, m) => t + messageTokens(counter, m), 0),
      items: itemMapOf(messages).items,
      userTurns: messages.filter((m) => m.role === "user").length,
      protectedMessages: messages.filter((m) => m.role === "user" || m.role === "system").length,
      bytes,
    },
    text,
    context,
  };
}

/** Runs the worker to its end; fails on a non-zero exit. */
async function runWorker(args: readonly string[]): Promise<string[]> {
  const w = startWorker(bundle, args);
  const code = await w.exited;
  if (code !== 0) throw new Error(`worker ${args.join(" ")} exited ${code}: ${w.stderr}`);
  return w.lines;
}

const NEVER = { token_threshold: 1_000_000_000, tokenizer: "chars" } as const;
const modes = [
  ["blocking", NEVER],
  ["background", { ...NEVER, soft_token_threshold: 900_000_000 }],
] as const;

describe.each(backends)("the per-step check on a session: $name", (backend) => {
  it.each(modes)("a %s step under the trigger counts only the items appended since the last step", async (_, c) => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    const history = Array.from({ length: 50 }, (_, k) => turn(`h${k}`)).flat();
    await s.append(history);
    const counter = countingCounter();
    // the first step reads the session, as an agent resuming it does
    await sessionStep(s, [], c, { counter });
    for (let k = 0; k < 3; k++) {
      counter.calls = 0;
      const step = await sessionStep(s, stepItems(`${k}`), c, { counter });
      expect(step.report.outcome).toBe("nothing-to-do");
      // the step's two new messages, each counted once: not the 200 of the history
      expect(counter.calls).toBeLessThanOrEqual(2);
      expect(step.items).toHaveLength(history.length + 2 * (k + 1));
    }
    expect((await sessionStep(s, [], c, { counter })).report.tokensBefore).toBe(
      (await freshCounts(at, counter)).counts.tokens,
    );
    await sessionSettle(s);
    await s.close();
  });

  it("the counts follow appends and a compaction by other processes, recounting only after the compaction", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    await s.append(Array.from({ length: 8 }, (_, k) => turn(`h${k}`)).flat());
    const counter = countingCounter();
    await s.contextCounts(counter);
    const same = async () => {
      const fresh = await freshCounts(at, counter);
      const calls = counter.calls;
      expect(await s.contextCounts(counter)).toEqual(fresh.counts);
      expect(await s.contextText()).toBe(fresh.text);
      expect(await s.context()).toEqual(fresh.context);
      return calls;
    };
    // another process appends three turns: this one counts their 12 messages, nothing else
    await runWorker(["append", at, "other", "3"]);
    counter.calls = 0;
    await s.contextCounts(counter);
    expect(counter.calls).toBe(12);
    await same();
    // another process compacts: the context is read again once (every message of it counted once)
    expect((await runWorker(["compact-once", at])).some((l) => /^compacted [1-9]/.test(l))).toBe(true);
    expect((await s.compactions()).length).toBeGreaterThan(0);
    counter.calls = 0;
    const counts = await s.contextCounts(counter);
    expect(counter.calls).toBe(counts.items);
    await same();
    // then appends are followed again: only theirs counted
    await runWorker(["append", at, "after", "2"]);
    counter.calls = 0;
    await s.contextCounts(counter);
    expect(counter.calls).toBe(8);
    await same();
    await s.close();
  });

  it("counts kept under one counter are not given for another", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    await s.append(turn("a"));
    const quarter = countingCounter();
    const whole: TokenCounter = { name: "chars", count: (t) => t.length };
    await sessionStep(s, turn("b"), NEVER, { counter: quarter });
    const r = await sessionStep(s, [], NEVER, { counter: whole });
    expect(r.report.tokensBefore).toBe((await freshCounts(at, whole)).counts.tokens);
    expect(r.report.tokensBefore).toBeGreaterThan((await s.contextCounts(quarter)).tokens);
    expect((await s.contextCounts(quarter)).tokens).toBe((await freshCounts(at, quarter)).counts.tokens);
    await s.close();
  });

  it.each([
    ["openai", openAIConversation({ turns: 8 }) as Json[]],
    ["anthropic", anthropicConversation({ turns: 8, callsPerStep: 2 }).messages as Json[]],
    ["responses", responsesConversation({ turns: 8 }) as unknown as Json[]],
    ["ai-sdk", modelMessagesConversation({ turns: 8 }).slice(1) as unknown as Json[]],
  ] as const)(
    "the context and counts of a %s agent's steps are those a fresh open reads, across compactions and clearings",
    async (format, items) => {
      const at = backend.fresh();
      const s: Session = await openSession(at, { format });
      const summarizer = offlineSummarizer(countingCounter());
      // batches of 2 to 4 items: a Responses reasoning item ends some of them (read with the next)
      const sizes = [3, 2, 4, 2];
      let compacted = 0;
      for (let k = 0, b = 0; k < items.length; k += sizes[b++ % sizes.length]) {
        const batch = items.slice(k, k + sizes[b % sizes.length]);
        const step = await sessionStep(
          s,
          batch,
          { token_threshold: 2500, tokenizer: "chars", strategy: b % 2 === 0 ? "clear-then-summarize" : "summarize" },
          { summarizer },
        );
        if (step.report.stretches.length > 0 || (step.report.clearing?.results ?? 0) > 0) compacted++;
        const counter = countingCounter();
        const fresh = await freshCounts(at, counter);
        expect(step.items).toEqual(fresh.context);
        expect(await s.contextCounts(counter)).toEqual(fresh.counts);
        expect(await s.contextText()).toBe(fresh.text);
      }
      expect(compacted).toBeGreaterThan(0);
      await s.close();
    },
  );
});
