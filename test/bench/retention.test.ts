// The retention measure (bench/loop/retention.ts): what it counts as seen, open, closed and held.
import { describe, expect, it } from "vitest";
import { commandText, constraints, errorLines, mean, RetentionMeter } from "../../bench/loop/retention.ts";
import { evidenceSession } from "../../bench/loop/sessions.ts";
import type { Message } from "../../src/model/message.ts";

const call = (id: string, name: string, args: object): Message => ({
  role: "assistant",
  content: "",
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});
const result = (id: string, content: string): Message => ({ role: "tool", toolCallId: id, content });

describe("retention measure", () => {
  it("reads commands, error lines and constraints by its rules", () => {
    expect(commandText("bash", JSON.stringify({ command: "npm test" }))).toBe("npm test");
    expect(commandText("read_file", JSON.stringify({ path: "src/a.ts" }))).toBe("read_file src/a.ts");
    expect(errorLines("ok\nTypeError: x is undefined\n  FAIL a > b\nexit code 0")).toEqual([
      "TypeError: x is undefined",
      "FAIL a > b",
    ]);
    expect(constraints("Fix it. Never edit src/gen. Use pnpm not npm.")).toEqual([
      "Never edit src/gen.",
      "Use pnpm not npm.",
    ]);
  });

  it("closes an error when the same command later succeeds, and counts what the context lost", () => {
    const user: Message = { role: "user", content: "Fix src/a.ts. Always run the tests." };
    const fail = [call("1", "bash", { command: "npm test" }), result("1", "FAIL src/a.ts > adds\nexit code 1")];
    const meter = new RetentionMeter();
    for (const m of [user, ...fail]) meter.see(m);
    // a context that kept only the user's message: the path (in the user message) is held, the
    // command and its error are not; the next call uses src/a.ts, which the context holds
    const next = call("2", "read_file", { path: "src/a.ts" });
    meter.measure([user], next);
    expect(mean(meter.result.paths)).toBe(1);
    expect(mean(meter.result.commands)).toBe(0);
    expect(mean(meter.result.errors)).toBe(0);
    expect(mean(meter.result.constraints)).toBe(1);
    expect(mean(meter.result.next)).toBe(1);
    // the whole history held: every share is 1; then the command succeeds and no error is open
    meter.measure([user, ...fail], next);
    expect(meter.result.errors.sum).toBe(1);
    meter.see(call("3", "bash", { command: "npm test" }));
    meter.see(result("3", "all passed\nexit code 0"));
    meter.measure([], next);
    expect(meter.result.errors.calls).toBe(2);
    expect(meter.result.constraints.sum).toBe(2);
  });

  it("the evidence session holds constraints, failing and passing commands", () => {
    const s = evidenceSession(400);
    expect(s.messages).toHaveLength(400);
    const users = s.messages.filter((m) => m.role === "user").flatMap((m) => constraints(m.content));
    expect(users.length).toBeGreaterThan(0);
    const tools = s.messages.filter((m) => m.role === "tool").map((m) => m.content);
    expect(tools.some((t) => t.endsWith("exit code 1"))).toBe(true);
    expect(tools.some((t) => t.endsWith("exit code 0"))).toBe(true);
  });
});
