// The examples of docs/integrations.md, one per ecosystem (AI SDK, LangChain, the OpenAI Agents SDK, Responses, the
// OpenAI and Anthropic SDK types), run as written, offline, with only their `safecut` imports
// pointed at this checkout's sources: each compacts its history and prints the outcome and the
// counts before and after. (They were the README's until the README kept a short list of them.)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const PAGE = "docs/integrations.md";
// the package's entries, as the checkout's sources
const ENTRIES: Record<string, string> = {
  safecut: "src/index.ts",
  "safecut/ai-sdk": "src/entries/ai-sdk.ts",
  "safecut/langchain": "src/entries/langchain.ts",
  "safecut/openai-agents": "src/entries/openai-agents.ts",
  "safecut/responses": "src/entries/responses.ts",
};

/** The TypeScript blocks of the page, as written. */
function snippets(): string[] {
  const page = readFileSync(join(ROOT, PAGE), "utf8");
  return Array.from(page.matchAll(/```ts\n([\s\S]*?)```/g), (m) => m[1] ?? "");
}

describe("docs/integrations.md's examples", { timeout: 120_000 }, () => {
  const blocks = snippets();

  it("has one per ecosystem", () => {
    expect(blocks.length).toBe(6);
  });

  it.each(blocks.map((b, k) => [k, b] as const))("example %i runs and compacts", (k, block) => {
    const code = block.replace(/from "(safecut[^"]*)"/g, (whole, name: string) =>
      ENTRIES[name] === undefined ? whole : `from ${JSON.stringify(join(ROOT, ENTRIES[name]))}`,
    );
    expect(code).not.toMatch(/from "safecut/);
    const dir = join(ROOT, ".tmp");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `integrations-${k}.ts`);
    writeFileSync(file, code);
    const r = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: ROOT, encoding: "utf8", timeout: 100_000 });
    expect(r.status, r.stderr).toBe(0);
    const m = /^(compacted|compacted-still-due) (\d+) -> (\d+) (messages|items)$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(Number(m?.[3])).toBeLessThan(Number(m?.[2]));
  });
});
