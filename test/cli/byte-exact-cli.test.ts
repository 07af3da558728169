// Through the CLI: a run with nothing to do writes the input back byte for byte (big integers,
// escapes, CRLF, minified JSON, a BOM), and a compacting run writes every message it did not
// replace with its exact original bytes, in order.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/model/json.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";

// each message gets an unknown field holding an integer beyond 2^53, unique per message
const BIG = 12345678901234567891n;
function lines(ms: readonly JsonObject[]): string[] {
  return ms.map((m, i) =>
    JSON.stringify(m)
      .replace(/^\{/, `{"seq":${BIG + BigInt(i)},"w":1.50,`)
      .replaceAll("é", "\\u00e9"),
  );
}

/** Messages of `input` missing from `output`, checking the present ones are in order. */
function keptInOrder(input: readonly string[], output: string): { kept: number; missing: number[] } {
  let at = 0;
  let kept = 0;
  const missing: number[] = [];
  input.forEach((l, i) => {
    const k = output.indexOf(l, at);
    if (k < 0) missing.push(i);
    else {
      kept++;
      at = k + l.length;
    }
  });
  return { kept, missing };
}

describe("CLI: bytes of untouched messages", () => {
  const oa = openAIConversation({ turns: 12 });

  it.each([
    ["minified body", (ls: string[]) => `{"model":"gpt-4o-mini","messages":[${ls.join(",")}],"n":1E3}`],
    ["CRLF JSONL", (ls: string[]) => `${ls.join("\r\n")}\r\n`],
    ["pretty array with a BOM", (ls: string[]) => `\uFEFF[\n\t${ls.join(",\n\t")}\n]`],
  ])("nothing to do (%s): output is the input, byte for byte", async (_name, make) => {
    const dir = tempDir();
    const text = make(lines(oa));
    writeFileSync(join(dir, "in.json"), text);
    const r = await runInProcess(["compact", "in.json", "--token-threshold", "10000000", "-o", "out.json", "-q"], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, "out.json")).equals(readFileSync(join(dir, "in.json")))).toBe(true);
  });

  it.each([
    ["OpenAI minified body", "openai", (ls: string[]) => `{"model":"gpt-4o-mini","messages":[${ls.join(",")}]}`],
    ["OpenAI CRLF JSONL", "openai", (ls: string[]) => `${ls.join("\r\n")}\r\n`],
    ["Anthropic body", "anthropic", (ls: string[]) => `{"system":"be brief","messages":[\n  ${ls.join(",\n  ")}\n]}\n`],
  ])("compacting (%s): every message not replaced keeps its bytes, in order", async (_name, shape, make) => {
    const dir = tempDir();
    const ls = lines(shape === "openai" ? oa : anthropicConversation({ turns: 12 }).messages);
    writeFileSync(join(dir, "in.json"), make(ls));
    const r = await runInProcess(["compact", "in.json", "--token-threshold", "3000", "-q"], { cwd: dir });
    // 0 (compacted) or 5 (compacted, still above the trigger): either way the result is written
    expect([0, 5], r.stderr).toContain(r.code);
    const { kept, missing } = keptInOrder(ls, r.stdout);
    expect(missing.length).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(0);
    // a replaced message is gone entirely (no re-serialized copy with rounded numbers)
    for (const i of missing) expect(r.stdout).not.toContain(`"seq":${BIG + BigInt(i)}`);
    const seqs = new Set(ls.map((_, i) => String(BIG + BigInt(i))));
    const written = Array.from(r.stdout.matchAll(/"seq":(\d+)/g), (m) => m[1]);
    expect(written.filter((n) => !seqs.has(n))).toEqual([]);
    if (make([]).includes("\r\n")) expect(r.stdout.replaceAll("\r\n", "")).not.toContain("\n");
  });
});
