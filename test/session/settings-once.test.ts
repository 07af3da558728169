// One session compact(config) takes the settings through their rules once and plans once per
// step: the settings are parsed at the edge (the session's compact) and handed down typed, the
// model limits resolved once. Counted with spies on
// the kernel gate's settings check (gateValidateConfig, the L12 rules), the planner (planStep) and
// the trigger (dueBy, once before the plan), on a real log session and the offline summarizer.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as trigger from "../../src/engine/boundary/kernel-gate-trigger.ts";
import * as plan from "../../src/engine/run/plan.ts";
import { openSession } from "../../src/session/open.ts";

vi.mock("../../src/engine/boundary/kernel-gate-trigger.ts", async (original) => {
  const m = await original<typeof import("../../src/engine/boundary/kernel-gate-trigger.ts")>();
  return { ...m, gateValidateConfig: vi.fn(m.gateValidateConfig) };
});
vi.mock("../../src/engine/run/plan.ts", async (original) => {
  const m = await original<typeof import("../../src/engine/run/plan.ts")>();
  return { ...m, planStep: vi.fn(m.planStep), dueBy: vi.fn(m.dueBy) };
});
const rules = vi.mocked(trigger.gateValidateConfig);
const planner = vi.mocked(plan.planStep);
const due = vi.mocked(plan.dueBy);
beforeEach(() => {
  rules.mockClear();
  planner.mockClear();
  due.mockClear();
});

/** A chat of `n` user/assistant turns, each message about `chars` characters. */
function chat(n: number, chars: number) {
  return Array.from({ length: 2 * n }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: `${i % 2 === 0 ? "question" : "answer"} ${i}: ${"word ".repeat(chars / 5)}`,
  }));
}

/** A log session holding a chat of 20 turns of about 400 characters a message. */
async function chatSession() {
  const s = await openSession(join(mkdtempSync(join(tmpdir(), "settings-once-")), "s.jsonl"), { format: "openai" });
  await s.append(chat(20, 400));
  return s;
}

describe("one session compact(config)", () => {
  it("a dry run that is due: the settings rules once, the planner once", async () => {
    const s = await chatSession();
    const config = {
      provider: "offline",
      tokenizer: "chars",
      token_threshold: 1_000,
      retention_window: 4,
      min_stretch_tokens: 1,
    } as const;
    rules.mockClear();
    planner.mockClear();
    due.mockClear();
    const report = await s.compact(config, { dryRun: true });
    expect(report.outcome).toBe("dry-run");
    expect({ rules: rules.mock.calls.length, planner: planner.mock.calls.length }).toEqual({ rules: 1, planner: 1 });
    // "is it due" once before the plan: the session's check on its context's counts; the run's start
    // takes that verdict (the trigger that fired, "request bytes" included) instead of deciding again
    const planAt = planner.mock.invocationCallOrder[0];
    expect(due.mock.invocationCallOrder.filter((k) => k < planAt).length).toBe(1);
    await s.close();
  });

  it("a dry run due by request bytes alone: decided once, the run goes by bytes", async () => {
    const s = await chatSession();
    const config = {
      provider: "offline",
      tokenizer: "chars",
      token_threshold: 1_000_000,
      max_request_bytes: 8_000,
      retention_window: 4,
      min_stretch_tokens: 1,
    } as const;
    due.mockClear();
    planner.mockClear();
    const report = await s.compact(config, { dryRun: true });
    expect(report.outcome).toBe("dry-run");
    expect(report.bytes?.dueByBytes).toBe(true);
    const planAt = planner.mock.invocationCallOrder[0];
    expect(due.mock.invocationCallOrder.filter((k) => k < planAt).length).toBe(1);
    expect(due.mock.results[0]?.value).toBe("request bytes");
    await s.close();
  });
});
