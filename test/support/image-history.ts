// Agent histories in Anthropic's shape whose tool results hold base64 images: a few thousand
// tokens to a provider (an image counts at a few hundred), and as many bytes as their images.
// For the byte budget's tests and benchmark (max_request_bytes).
import type Anthropic from "@anthropic-ai/sdk";
import { buildLog } from "./agent-overflow-server.ts";

/** base64 of `n` bytes of image data (the provider counts it at a few hundred tokens, its size in full). */
export const imageData = (n: number, fill: number) => Buffer.alloc(n, fill).toString("base64");

type Block = Anthropic.ContentBlockParam | Anthropic.ToolResultBlockParam;

/** An agent's history in Anthropic's shape: `rounds` tool calls; the results of rounds in `withImage` hold an image of `imageBytes`. */
export function imageHistory(
  rounds: number,
  withImage: (i: number) => boolean,
  imageBytes: number,
): Anthropic.MessageParam[] {
  const ms: Anthropic.MessageParam[] = [
    { role: "user", content: "Take a screenshot of each page and tell me which one is broken." },
  ];
  for (let i = 0; i < rounds; i++) {
    ms.push({
      role: "assistant",
      content: [{ type: "tool_use", id: `toolu_${i}`, name: "screenshot", input: { page: i } }],
    });
    const content: Block[] = withImage(i)
      ? [
          { type: "text", text: `page ${i}` },
          { type: "image", source: { type: "base64", media_type: "image/png", data: imageData(imageBytes, i) } },
        ]
      : [{ type: "text", text: buildLog(i, 400) }];
    ms.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: content as never }] });
  }
  ms.push({ role: "user", content: "Which page is broken?" });
  return ms;
}
