// The ideal lawful compactor of the agent-loop replay (bench/loop/lawful-floor.ts): shrunk to its
// floor, a context keeps every user and system message and the retention window as they were, and
// holds one summary per gap between them carrying that gap's required facts; the replay calls it
// only when due, and clearing first never makes more calls than summarizing at once.
import { describe, expect, it } from "vitest";
import { contextTokens } from "../../bench/loop/compactors.ts";
import { clearAll, floorReplay, shrinkToFloor } from "../../bench/loop/lawful-floor.ts";
import { codingSession } from "../../bench/loop/sessions.ts";
import { placeholderPattern, placeholderText } from "../../src/engine/run/clearing.ts";
import { missingFacts, requiredFacts } from "../../src/engine/summarize/facts.ts";
import type { Message } from "../../src/model/message.ts";
import { SETTINGS } from "../../src/model/settings-table.ts";

const session = codingSession(300);
const TRIGGER = 15_000;

describe("the least the laws allow", () => {
  it("keeps user, system and the retention window; one summary with the gap's facts per gap", () => {
    const context = session.messages.slice(0, 200) as Message[];
    const floor = shrinkToFloor(context, 6);
    expect(floor.slice(-6)).toEqual(context.slice(-6));
    const kept = (ms: readonly Message[]) => ms.filter((m) => m.role === "user" || m.role === "system");
    expect(kept(floor)).toEqual(kept(context.slice(0, -6)).concat(kept(context.slice(-6))));
    // before the window: user/system messages and single summaries between them, never two summaries in a row
    const head = floor.slice(0, -6);
    expect(head.every((m) => m.role === "user" || m.role === "system" || m.role === "summary")).toBe(true);
    expect(head.some((m, i) => m.role === "summary" && head[i + 1]?.role === "summary")).toBe(false);
    // each summary carries its gap's required facts
    let at = 0;
    let checked = 0;
    for (const m of head) {
      if (m.role !== "summary") {
        while (context[at] !== m) at++;
        at++;
        continue;
      }
      const gap: Message[] = [];
      while (context[at].role !== "user" && context[at].role !== "system" && at < context.length - 6)
        gap.push(context[at++]);
      expect(missingFacts(m.content, requiredFacts(gap, []))).toEqual([]);
      checked++;
    }
    expect(checked).toBe(head.filter((m) => m.role === "summary").length);
    expect(checked).toBeGreaterThan(5);
    expect(contextTokens(floor)).toBeLessThan(contextTokens(context));
  });

  it("with a setting's keeps, also keeps the newest tokens it asks for and every earlier summary", () => {
    const context = session.messages.slice(0, 200) as Message[];
    const plain = shrinkToFloor(context, 6);
    const keep = 3_000;
    const recent = shrinkToFloor(context, 6, { keepRecentTokens: keep });
    // the kept tail holds at least `keep` of the newest tokens, unchanged, and is wider than the window
    // the longest suffix of the floor that is the context's own suffix, message for message
    let same = 0;
    while (recent[recent.length - 1 - same] === context[context.length - 1 - same]) same++;
    const tail = context.slice(context.length - same);
    expect(contextTokens(tail)).toBeGreaterThanOrEqual(keep);
    expect(tail.length).toBeGreaterThan(6);
    expect(contextTokens(recent)).toBeGreaterThan(contextTokens(plain));
    // summaries kept: a context that already holds the floor's summaries keeps each of them as it was
    const once = shrinkToFloor(context.slice(0, 150) as Message[], 6);
    const grown = [...once, ...context.slice(150)];
    const again = shrinkToFloor(grown, 6, { keepSummaries: true });
    const earlier = once.filter((m) => m.role === "summary");
    expect(earlier.length).toBeGreaterThan(3);
    for (const m of earlier) expect(again).toContain(m);
    // without the keep, the next floor merges earlier summaries with the gaps around them
    expect(earlier.every((m) => shrinkToFloor(grown, 6).includes(m))).toBe(false);
  });

  it("clearing leaves the retention window and every message but tool results before it as they were", () => {
    const context = session.messages.slice(0, 120) as Message[];
    const cleared = clearAll(context, 6);
    expect(cleared.slice(-6)).toEqual(context.slice(-6));
    cleared.slice(0, -6).forEach((m, i) => {
      // the placeholder the clearing tier writes: "[tool result cleared: 1,234 chars]"
      if (m.role === "tool") {
        expect(m.content).toMatch(placeholderPattern(SETTINGS.clear_placeholder.default));
        expect(m.content).toBe(placeholderText(SETTINGS.clear_placeholder.default, context[i].content.length));
      } else expect(m).toBe(context[i]);
    });
  });

  it("is called only when due, and clearing first calls it less often", () => {
    const summarize = floorReplay(session, TRIGGER, { clearing: false });
    const clearing = floorReplay(session, TRIGGER, { clearing: true, summarizeFrom: 1 });
    expect(summarize.modelCalls).toBe(session.messages.filter((m) => m.role === "assistant").length);
    expect(summarize.calls).toBeGreaterThan(0);
    expect(clearing.calls).toBeLessThan(summarize.calls);
    // it sends less than the context grown without compaction
    const never = floorReplay(session, Number.MAX_SAFE_INTEGER, { clearing: false });
    expect(never.calls).toBe(0);
    expect(summarize.mainInput).toBeLessThan(never.mainInput);
  });
});
