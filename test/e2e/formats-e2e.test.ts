// End to end, one run of the real `node bin/safecut.js` per format (OpenAI chat, Anthropic, AI SDK,
// OpenAI Responses) with the offline summarizer: the format is detected, the output reads back in
// the same format, the report counts and places stretches in the format's own items, and every
// item outside the reported stretches is written back with its exact bytes, in order.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import type { FormatName } from "../../src/adapters/detect.ts";
import type { JsonObject } from "../../src/model/json.ts";
import { runProcess, tempDir } from "../support/cli-run.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";
import { modelMessagesConversation, responsesConversation } from "../support/generate-sdk.ts";

// each item carries an integer beyond 2^53 unique to it: found in the output only as its own bytes
const BIG = 98765432109876543210n;
const tagged = (items: readonly object[]) =>
  items.map((m, i) => JSON.stringify(m).replace(/^\{/, `{"seq":${BIG + BigInt(i)},`));

interface Case {
  readonly format: FormatName;
  readonly items: string[];
  readonly file: (items: string[]) => string;
}

const CASES: Case[] = [
  {
    format: "openai",
    items: tagged(openAIConversation({ turns: 20, seed: 3 })),
    file: (ls) => `{"model": "gpt-4o-mini", "messages": [\n    ${ls.join(",\n    ")}\n]}\n`,
  },
  (() => {
    const an = anthropicConversation({ turns: 20, seed: 4 });
    return {
      format: "anthropic" as const,
      items: tagged(an.messages),
      file: (ls: string[]) => `{"system":${JSON.stringify(an.system)},"messages":[${ls.join(",")}],"max_tokens":1024}`,
    };
  })(),
  {
    format: "ai-sdk",
    items: tagged(modelMessagesConversation({ turns: 20, seed: 5 })),
    file: (ls) => `[\n\t${ls.join(",\n\t")}\n]\n`,
  },
  {
    format: "responses",
    items: tagged(responsesConversation({ turns: 20, seed: 6 })),
    file: (ls) => `{\n  "model": "gpt-5",\n  "input": [\n    ${ls.join(",\n    ")}\n  ],\n  "store": false\n}\n`,
  },
];

interface Stretch {
  readonly input: { readonly first: number; readonly last: number };
}

describe("safecut compact on each format's own file, end to end", () => {
  it.each(CASES.map((c) => [c.format, c] as const))("%s", async (format, c) => {
    const dir = tempDir();
    const text = c.file(c.items);
    writeFileSync(join(dir, "in.json"), text);
    const r = await runProcess(
      // the stretches are what this test places and checks: a summarizing run
      [
        "compact",
        "in.json",
        "--token-threshold",
        "4000",
        "--retention-window",
        "4",
        "--strategy",
        "summarize",
        "--report",
        "report.json",
      ],
      { cwd: dir },
    );
    expect([0, 5], r.stderr).toContain(r.code);
    expect(readFileSync(join(dir, "in.json"), "utf8")).toBe(text);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    expect(report.format).toBe(format);
    expect(report.laws.every((l: { ok: boolean }) => l.ok)).toBe(true);
    expect(report.stretches.length).toBeGreaterThan(0);

    // the output reads back in the same format, with summaries, and as many items as reported
    const out = readConversationFile(r.stdout);
    expect(out.format).toBe(format);
    expect(out.messages.some((m) => m.role === "summary")).toBe(true);
    const container = JSON.parse(r.stdout) as JsonObject | JsonObject[];
    const outItems = Array.isArray(container)
      ? container
      : (container[format === "responses" ? "input" : "messages"] as JsonObject[]);
    expect(report.messagesBefore).toBe(c.items.length);
    expect(report.messagesAfter).toBe(outItems.length);

    // every item outside the reported stretches keeps its bytes, in order; every item wholly
    // inside one is gone; the last 4 items (the retention window) are among the kept
    const stretches: Stretch[] = report.stretches;
    const inside = (k: number) => stretches.some((s) => s.input.first < k && k < s.input.last);
    const touched = (k: number) => stretches.some((s) => s.input.first <= k && k <= s.input.last);
    let at = 0;
    c.items.forEach((item, k) => {
      if (touched(k)) {
        if (inside(k)) expect(r.stdout).not.toContain(`"seq":${BIG + BigInt(k)}`);
        return;
      }
      const found = r.stdout.indexOf(item, at);
      expect(found, `item ${k} kept byte for byte, in order`).toBeGreaterThanOrEqual(0);
      at = found + item.length;
    });
    for (let k = c.items.length - 4; k < c.items.length; k++) expect(touched(k)).toBe(false);
  });
});
