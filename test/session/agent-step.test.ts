// Agents whose history lives in a session, on both backends: the AI SDK's prepareStep hook in a
// generateText loop (the model an in-process stand-in of the AI SDK's own test kit), and
// sessionStep for the Chat Completions format, the agent resuming from a fresh open.
import { generateText, stepCountIs, tool } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Json } from "../../src/model/json.ts";
import { sessionStep } from "../../src/session/agent-step.ts";
import { sessionBeforeStep } from "../../src/session/ai-sdk-session.ts";
import { openSession } from "../../src/session/open.ts";
import { anthropicConversation } from "../support/generate.ts";
import { modelMessagesConversation, responsesConversation } from "../support/generate-sdk.ts";
import { toolThenTextModel } from "../support/tool-then-text-model.ts";
import { backends, removeFresh } from "./backends.ts";
import { questionCounts, SMALL_CONFIG, turn } from "./conversation.ts";
import { sessionLawProblems } from "./session-laws.ts";

afterAll(removeFresh);

describe.each(backends)("agents on a session: $name", (backend) => {
  it("sessionStep returns the memory flush candidates its run stored with the records, and hands them to the hook", async () => {
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    const hooked: unknown[] = [];
    const config = { ...SMALL_CONFIG, memory_candidates: 2 };
    let returned: unknown[] = [];
    for (let i = 0; i < 12; i++) {
      const [question, ...rest] = turn(`ms${i}`);
      const step = await sessionStep(
        s,
        [{ ...question, content: `${question.content}. Always run lint${i} first.` }, ...rest],
        config,
        { onMemoryCandidates: (c) => hooked.push(...c) },
      );
      returned = [...returned, ...step.memoryCandidates];
    }
    const stored = (await s.compactions()).flatMap((r) => r.memoryCandidates ?? []);
    expect(stored.length).toBeGreaterThan(0);
    expect(returned).toEqual(stored);
    expect(hooked).toEqual(stored);
    await s.close();
  });

  it("the AI SDK hook persists every step, compacts when due, and a new process sees the whole run", async () => {
    const at = backend.fresh();
    const [, ...history] = modelMessagesConversation({ turns: 10 });
    const model = toolThenTextModel("live-1", "ls", "all done");
    const s = await openSession(at, { format: "ai-sdk" });
    // summarizing only: the test looks for the summary a compaction step persisted
    const hook = sessionBeforeStep(s, { token_threshold: 3000, strategy: "summarize" });
    const messages = await hook.start(history);
    const result = await generateText({
      model,
      messages,
      tools: { ls: tool({ inputSchema: z.object({}), execute: async () => "a.ts b.ts" }) },
      stopWhen: stepCountIs(3),
      prepareStep: hook.prepareStep,
    });
    await hook.finish(result.response.messages);
    expect(result.text).toBe("all done");
    // the model saw a compacted history
    expect(JSON.stringify(model.doGenerateCalls[0].prompt)).toContain("<summary>");
    await s.close();
    const again = await openSession(at);
    const full = await again.history({ full: true });
    // every message of the run, once: the history, the call, its result, the answer
    expect(full.trim().split("\n")).toHaveLength(history.length + 3);
    expect(full.match(/"toolCallId":"live-1"/g)).toHaveLength(2);
    expect(full).toContain("all done");
    expect((await again.compactions()).length).toBeGreaterThan(0);
    expect(await sessionLawProblems(again)).toEqual([]);
    await again.close();
  });

  it.each([
    ["anthropic", anthropicConversation({ turns: 10 }).messages as Json[]],
    ["responses", responsesConversation({ turns: 10 }) as unknown as Json[]],
  ] as const)("sessionStep keeps a %s agent's history: appended once, compacted, lawful", async (format, items) => {
    const at = backend.fresh();
    const s = await openSession(at, { format });
    // the agent's turns arrive a few items at a time, each step compacting when due
    let sent: Json[] = [];
    for (let k = 0; k < items.length; k += 5)
      sent = (await sessionStep(s, items.slice(k, k + 5), { token_threshold: 3000 })).items;
    expect((await s.history({ full: true })).trim().split("\n")).toHaveLength(items.length);
    expect((await s.compactions()).length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThan(items.length);
    expect(sent).toEqual(await (await openSession(at)).context());
    expect(await sessionLawProblems(s)).toEqual([]);
    await s.close();
  });

  it("sessionStep: an agent killed between steps resumes from the session with its history intact", async () => {
    const at = backend.fresh();
    const run = async (from: number, to: number) => {
      const s = await openSession(at, { format: "openai" });
      for (let i = from; i < to; i++) {
        const [question, ...reply] = turn(`a${i}`);
        const { items } = await sessionStep(s, [question], SMALL_CONFIG);
        // what the model is sent ends with the question, the history before it compacted
        expect(items.at(-1)).toEqual(question);
        await s.append(reply);
      }
      // "killed": the session is dropped without closing it
    };
    await run(0, 8);
    await run(8, 16);
    const s = await openSession(at);
    const counts = questionCounts(await s.history({ full: true }));
    expect(counts.size).toBe(16);
    for (const c of counts.values()) expect(c).toBe(1);
    expect((await s.compactions()).length).toBeGreaterThan(0);
    expect(await sessionLawProblems(s)).toEqual([]);
    await s.close();
  });
});
