// The tool-pairing rule spelled in one place (issue 34, part 9): whether a tool result answers a
// waiting call, whether a call id is new, whether a list pairs well is decided by the model's
// pairing index (src/model/tool-pairing.ts) and, for the kernel's views, by the kernel's Pairing
// (src/kernel, checked at runtime by its pairingOk). Any other source file that steps the index by
// hand (its per-call and per-result steps) or keeps its own map from call ids to message positions
// spells the rule again, and is listed here.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
/** The one owner of the rule outside the kernel. */
const OWNER = "src/model/tool-pairing.ts";
/** The law and its generated copies (the kernel, its plain reference, the generated kernel entry and guards). */
const LAW = ["src/kernel/", "src/reference/", "src/entries/kernel.ts", "src/engine/boundary/kernel-requires.ts"];

/** The ways the rule is spelled again: the index's steps taken by hand, or a call id -> position map. */
const SPELLED: readonly { readonly what: string; readonly re: RegExp }[] = [
  { what: "steps the pairing index by hand", re: /\.(addCalls|answer|resultProblem|firstDuplicate)\(/ },
  { what: "maps call ids to message positions", re: /\.set\(\s*\w+\.id\s*,\s*(i|j|k|at|index|pos|o)\s*\)/ },
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") ? [relative(ROOT, p).split("\\").join("/")] : [];
  });
}

describe("the tool-pairing rule", () => {
  it("is spelled only by its owner and the kernel", () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, "src"))) {
      if (file === OWNER || LAW.some((l) => file.startsWith(l))) continue;
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          for (const s of SPELLED) if (s.re.test(line)) found.push(`${file}:${i + 1} ${s.what}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("the patterns see a spelling when there is one", () => {
    expect(SPELLED[0].re.test("if (!pairing.addCalls(m.toolCalls, i)) return false;")).toBe(true);
    expect(SPELLED[1].re.test("for (const c of m.toolCalls) callAt.set(c.id, i);")).toBe(true);
  });
});
