// Writing a one-line JSON file back is linear in its size (issue 34, part 5): every cleared tool
// result is written in place with the indentation of its line, and finding that indentation must
// not scan back to the start of a line that holds the whole file. A quadratic writer's cost per
// message grows with the file (4x the messages: ~4x the cost per message); a linear one's does not.
import { describe, expect, it } from "vitest";
import { conversationText } from "../../bench/conversation-text.ts";
import { collect, cpuMs, median } from "../../bench/measure.ts";
import { readConversationFile, writeConversationFile } from "../../src/adapters/conversation-file.ts";
import type { Message } from "../../src/model/message.ts";

// every tool result cleared, as a clearing run over the whole history would
function cleared(messages: readonly Message[]): Message[] {
  return messages.map((m) => (m.role === "tool" ? { ...m, content: "[tool result cleared]", clearedFrom: m } : m));
}

/** CPU ms per message of writing back the n-message one-line file with every tool result cleared (median of 5). */
function writePerMessage(n: number): number {
  const text = conversationText(n, "json-array");
  const conv = readConversationFile(text);
  const messages = cleared(conv.messages);
  const samples: number[] = [];
  for (let i = 0; i < 6; i++) {
    collect();
    const t0 = cpuMs();
    const out = writeConversationFile(messages, {
      format: conv.format,
      container: conv.container,
      layout: conv.layout,
    });
    const t = cpuMs() - t0;
    expect(out.includes("[tool result cleared]")).toBe(true);
    if (i > 0) samples.push(t / n);
  }
  return median(samples);
}

describe("writing one-line JSON back", () => {
  it("costs per message at 20k messages < 2x its cost at 5k (clearing every tool result)", () => {
    const small = writePerMessage(5_000);
    const large = writePerMessage(20_000);
    expect(
      large / small,
      `${(small * 1000).toFixed(1)} µs/msg at 5k, ${(large * 1000).toFixed(1)} µs/msg at 20k`,
    ).toBeLessThan(2);
  }, 120_000);
});
