// The model's one rule from message sources to items (sourceItemColumns): what the OpenAI and
// Anthropic readers record turns into the item counts users speak of, whatever the format.
import { describe, expect, it } from "vitest";
import { readAnthropicMessages } from "../../src/adapters/anthropic.ts";
import { readOpenAIMessages } from "../../src/adapters/openai.ts";
import { sourceItemColumns } from "../../src/model/item-map.ts";

describe("sourceItemColumns", () => {
  it("gives an Anthropic message read as several one item, and its top-level system none", () => {
    const messages = readAnthropicMessages(
      [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "tool_use", id: "a", name: "t", input: {} }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "a", content: "done" },
            { type: "text", text: "next" },
          ],
        },
      ],
      "be brief",
    );
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
    const cols = sourceItemColumns(messages);
    expect(cols?.items).toBe(3);
    expect([...(cols?.firsts ?? [])]).toEqual([0, 0, 1, 2, 2]);
    expect([...(cols?.lasts ?? [])]).toEqual([-1, 0, 1, 2, 2]);
  });

  it("finds every message its own item when no source is shared or outside the list", () => {
    const messages = readOpenAIMessages([
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      { role: "assistant", content: "a" },
    ]);
    expect(sourceItemColumns(messages)).toBeUndefined();
    expect(sourceItemColumns([{ role: "user", content: "by hand" }])).toBeUndefined();
  });
});
