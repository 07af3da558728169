// Faults around the commit: messages appended while the summarizer runs (the plan still applies:
// rebase), a competing rewrite while it runs (the step must be rejected), a crash (thrown error)
// between planning and committing (a summarizer's own error is a degraded step, a progress
// callback's error propagates), and an abort. The summarizer is the real OpenAI-compatible
// client against a local HTTP imitation, so the appends really happen while a request is in
// flight. Each case asserts the outcome, that nothing was lost, and that the reason is reported.
import { afterEach, describe, expect, it } from "vitest";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { assertWellFormed } from "../../src/engine/boundary/wellformed.ts";
import { compactStore } from "../../src/engine/run/compact.ts";
import { planStep } from "../../src/engine/run/plan.ts";
import { ConversationStore } from "../../src/engine/store/store.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { type Message, summaryMessage } from "../../src/model/message.ts";
import { SETTINGS } from "../../src/model/settings-table.ts";
import type { Summarizer } from "../../src/model/summarizer.ts";
import { bpeCounter, messageTokens } from "../../src/model/tokens.ts";
import { anthropicSummarizer } from "../../src/providers/anthropic-summarizer.ts";
import { openAISummarizer } from "../../src/providers/openai-summarizer.ts";
import { openAIConversation } from "../support/generate.ts";
import {
  type Behavior,
  factfulAnswer,
  type Imitation,
  type RecordedRequest,
  startImitation,
} from "../support/http-imitation.ts";
import { expectLawsHold } from "../support/laws.ts";

const counter = bpeCounter();
const WINDOW = 6;
// faults of summarizing steps: the strategy that only summarizes (no clearing run before them)
const config = parseConfig({
  strategy: "summarize",
  token_threshold: 2_000,
  retention_window: WINDOW,
  model: "gpt-4o-mini",
  provider: "openai",
  base_url: "http://127.0.0.1:9",
  retry_delay_ms: 10,
});
const total = (ms: readonly Message[]) => ms.reduce((s, m) => s + messageTokens(counter, m), 0);

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function freshStore(): { store: ConversationStore; before: Message[] } {
  const msgs = readOpenAIMessages(openAIConversation({ turns: 6, seed: 21 }));
  return { store: new ConversationStore(counter, msgs), before: structuredClone(msgs) };
}

async function imitation(
  script: (n: number, req: RecordedRequest) => Behavior,
  api: "openai" | "anthropic" = "openai",
): Promise<Summarizer> {
  server = await startImitation(api, script);
  return api === "openai"
    ? openAISummarizer({ baseUrl: server.url, timeoutMs: 5_000 })
    : anthropicSummarizer({ baseUrl: server.url, timeoutMs: 5_000 });
}

const good = (req: RecordedRequest, delayMs = 0): Behavior => ({ kind: "summary", text: factfulAnswer(req), delayMs });

/** Messages an agent appends while a summary is being written: a tool call with its result, then a reply. */
function lateMessages(k: number): Message[] {
  return [
    { role: "user", content: `late question ${k}` },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: `late_${k}`, name: "read_file", arguments: `{"path":"src/late${k}.ts"}` }],
    },
    { role: "tool", toolCallId: `late_${k}`, content: `contents of src/late${k}.ts` },
    { role: "assistant", content: `late answer ${k}`, toolCalls: [] },
  ];
}

describe("appends arriving during summarization", () => {
  it.each(["openai", "anthropic"] as const)(
    "are kept, in order, after the summary; the planned step still commits (rebase) (%s)",
    async (api) => {
      const { store, before } = freshStore();
      const appended: Message[] = [];
      const summarizer = await imitation((n, req) => {
        // the request is in flight: the agent keeps talking
        if (n < 2)
          for (const m of lateMessages(n)) {
            store.append(m);
            appended.push(m);
          }
        return good(req, 30);
      }, api);
      const report = await compactStore(store, config, { summarizer, agentModel: "gpt-4o-mini" });
      expect(report.outcome).toBe("compacted");
      expect(report.stretches.length).toBeGreaterThan(0);
      expect(report.stretches[0].decision).toBe("rebase");
      const expected = [...before, ...appended];
      const after = store.messages;
      // the appended messages are the conversation's tail, untouched and in order
      expect(after.slice(after.length - appended.length)).toEqual(appended);
      assertWellFormed(after);
      expectLawsHold(expected, after, WINDOW, { before: total(expected), after: store.totalTokens });
      // the ledger stayed exact through appends and splices
      expect(store.totalTokens).toBe(total(after));
      expect(report.reason).not.toBe("");
    },
  );
});

describe("a competing rewrite during summarization", () => {
  it("makes the step fail with a reason; the competitor's result stands, nothing else changes", async () => {
    const { store, before } = freshStore();
    let afterCompetitor: Message[] | undefined;
    const summarizer = await imitation((n, req) => {
      if (n === 0) {
        // another writer commits its own splice of the same stretch while our request is in flight
        const snap = store.snapshot();
        const plan = planStep(snap, config);
        if (plan.stretch === undefined) throw new Error("test set-up: nothing to splice");
        store.commitSplice(
          snap,
          plan.stretch.start,
          plan.stretch.end,
          summaryMessage("the other writer's summary of src/module0/index.ts"),
        );
        afterCompetitor = structuredClone([...store.messages]);
      }
      return good(req, 30);
    });
    const report = await compactStore(store, config, { summarizer, agentModel: "gpt-4o-mini" });
    expect(afterCompetitor).toBeDefined();
    expect(report.outcome).toBe("superseded");
    expect(report.reason).toMatch(/another writer committed first .* the step was not applied/);
    expect(report.stretches).toHaveLength(0);
    expect(store.messages).toEqual(afterCompetitor);
    expectLawsHold(before, [...store.messages], WINDOW);
  });
});

describe("a crash between plan and commit", () => {
  // A custom summarizer's own error (not a SummarizerError) is a failed attempt like any other:
  // retried up to max_attempts calls, then a degraded run whose reason carries the error (a failure leaves
  // the conversation as it was and says why), not a rejection of the whole call.
  it("a summarizer throwing a non-summarizer error: degraded with its message after max_attempts calls, the store is as before and usable", async () => {
    const { store, before } = freshStore();
    const version = store.version;
    let calls = 0;
    const crashing: Summarizer = {
      name: "crashing",
      summarize: async () => {
        calls++;
        throw new TypeError("summarizer bug: cannot read 'text'");
      },
    };
    const failed = await compactStore(store, config, { summarizer: crashing, agentModel: "x" });
    expect(failed.outcome).toBe("degraded");
    expect(failed.reason).toMatch(/TypeError: summarizer bug: cannot read 'text'/);
    expect(failed.stretches).toHaveLength(0);
    expect(calls).toBe(SETTINGS.max_attempts.default);
    expect(store.messages).toEqual(before);
    expect(store.version).toBe(version);
    expect(store.totalTokens).toBe(total(before));
    // the compaction lock was released: the next compaction runs and succeeds
    const summarizer = await imitation((_n, req) => good(req));
    const report = await compactStore(store, config, { summarizer, agentModel: "gpt-4o-mini" });
    expect(report.outcome).toBe("compacted");
    expectLawsHold(before, [...store.messages], WINDOW, { before: total(before), after: store.totalTokens });
  });

  it("a progress callback throwing after planning, before the summary is requested: nothing changes, nothing is sent", async () => {
    const { store, before } = freshStore();
    const summarizer = await imitation((_n, req) => good(req));
    const onProgress = (line: string) => {
      if (/summarizing/.test(line)) throw new Error("progress sink closed");
    };
    await expect(compactStore(store, config, { summarizer, agentModel: "gpt-4o-mini", onProgress })).rejects.toThrow(
      /progress sink closed/,
    );
    expect(store.messages).toEqual(before);
    expect(server?.requests).toHaveLength(0);
  });

  it("a crash after a step committed keeps that step whole: the store is a lawful compaction, never a half-applied one", async () => {
    const { store, before } = freshStore();
    const summarizer = await imitation((_n, req) => good(req));
    const onProgress = (line: string) => {
      if (/replaced/.test(line)) throw new Error("crash right after the first commit");
    };
    await expect(compactStore(store, config, { summarizer, agentModel: "gpt-4o-mini", onProgress })).rejects.toThrow(
      /crash right after the first commit/,
    );
    const after = [...store.messages];
    expect(after.filter((m) => m.role === "summary")).toHaveLength(1);
    expect(after.length).toBeLessThan(before.length);
    assertWellFormed(after);
    expectLawsHold(before, after, WINDOW, { before: total(before), after: store.totalTokens });
    expect(store.totalTokens).toBe(total(after));
  });

  it("the one-shot library call: the caller's messages are untouched and the error is reported", async () => {
    const msgs = readOpenAIMessages(openAIConversation({ turns: 6, seed: 21 }));
    const frozen = structuredClone(msgs);
    const crashing: Summarizer = {
      name: "crashing",
      summarize: async () => {
        throw new RangeError("out of memory in the summarizer");
      },
    };
    const r = await compactMessages(msgs, { token_threshold: 2_000, strategy: "summarize" }, { summarizer: crashing });
    expect(r.report.outcome).toBe("degraded");
    expect(r.report.reason).toMatch(/RangeError: out of memory in the summarizer/);
    expect(r.messages).toEqual(frozen);
    expect(msgs).toEqual(frozen);
  });
});

describe("an abort while the request is in flight", () => {
  it("leaves the conversation unchanged and says it was aborted", async () => {
    const { store, before } = freshStore();
    const ac = new AbortController();
    const summarizer = await imitation(() => {
      setTimeout(() => ac.abort(), 20);
      return { kind: "hang" };
    });
    const report = await compactStore(store, config, { summarizer, agentModel: "gpt-4o-mini", signal: ac.signal });
    expect(report.outcome).toBe("degraded");
    expect(report.reason).toMatch(/aborted/);
    expect(store.messages).toEqual(before);
    // aborting is final: the engine does not retry after the caller gave up
    expect(server?.requests).toHaveLength(1);
  });
});
