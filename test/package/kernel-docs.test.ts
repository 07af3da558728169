// The generated kernel documentation (docs/kernel.md) and kernel entry (src/entries/kernel.ts)
// are what the translator makes of the current `//@` annotations (regenerate with
// `npm run docs`), and the entry exports exactly the verified kernel: every `//@ verify`
// function of src/kernel, found here by a plain scan independent of the generator.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as entry from "../../src/entries/kernel.ts";
import { DOC_FILES, generateDocs } from "../../src/toolchain/emit/docs-emit.ts";
import { layout } from "../../src/toolchain/frontend/load.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** `export function name` directly below a `//@` block that holds `//@ verify`, per kernel file. */
function verifiedExports(): Map<string, string> {
  const out = new Map<string, string>();
  const dir = join(ROOT, "src", "kernel");
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".ts"))) {
    const blocks = readFileSync(join(dir, f), "utf8").split(/\n(?=export function )/);
    for (let i = 1; i < blocks.length; i++) {
      const name = /^export function (\w+)/.exec(blocks[i])?.[1] as string;
      const header = blocks[i - 1].slice(blocks[i - 1].lastIndexOf("}\n") + 1);
      if (/^\/\/@ verify$/m.test(header)) out.set(name, f);
    }
  }
  return out;
}

describe("generated kernel docs", () => {
  const fresh = generateDocs(layout(ROOT));

  for (const rel of Object.values(DOC_FILES)) {
    it(`${rel} is up to date (run: npm run docs)`, () => {
      expect(readFileSync(join(ROOT, rel), "utf8")).toBe(fresh.get(rel));
    });
  }

  it("the kernel entry exports every verified kernel function, each calling the kernel's own on a copy, and nothing else", async () => {
    const verified = verifiedExports();
    expect(verified.size).toBeGreaterThan(40);
    expect(Object.keys(entry).sort()).toEqual([...verified.keys()].sort());
    const entryText = fresh.get(DOC_FILES.entry) as string;
    for (const [name, file] of verified) {
      const mod = (await import(`../../src/kernel/${file}`)) as Record<string, (...a: unknown[]) => unknown>;
      const wrapper = (entry as Record<string, unknown>)[name];
      expect(typeof wrapper, name).toBe("function");
      expect((wrapper as (...a: unknown[]) => unknown).length, name).toBe(mod[name].length);
      // the wrapper runs this very function of the kernel, on the copied arguments
      const module = `${file.replace(/\.ts$/, "")}Module`;
      expect(entryText, name).toMatch(new RegExp(`\\n  return ${module}\\.${name}\\(`));
    }
  });

  it("each function's TSDoc and docs/kernel.md state its preconditions and guarantees", () => {
    const entryText = fresh.get(DOC_FILES.entry) as string;
    const md = fresh.get(DOC_FILES.markdown) as string;
    const doc = entryText.slice(0, entryText.indexOf("export const findCutPoint"));
    const tsdoc = doc.slice(doc.lastIndexOf("/**"));
    expect(tsdoc).toContain("law L7");
    expect(tsdoc).toContain("- `0 <= start && start <= end && end <= roles.length`");
    expect(tsdoc).toContain(
      '- `result.found ==> start <= result.firstKept && result.firstKept < end && roles[result.firstKept] !== "tool"`',
    );
    const section = md.slice(md.indexOf("### `findCutPoint`"));
    expect(section.slice(0, section.indexOf("\n### "))).toMatch(
      /Law: L7\.[\s\S]*Preconditions:[\s\S]*tokens\.length === callOf\.length[\s\S]*Guarantees:[\s\S]*sumTokens\(tokens, result\.firstKept, end\) >= keepRecentTokens/,
    );
    expect(md).toContain(
      "### `retentionCutoff`\n\n```ts\nfunction retentionCutoff(n: number, window: number): number\n```",
    );
    expect(md).toMatch(/retentionCutoff[\s\S]*?Guarantees:\n\n- `result >= 0 \(a natural number\)`/);
  });
});
