// README's session example runs as written, with its `safecut` import pointed at this
// checkout's sources: it compacts a session and prints the outcome and the item counts.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const SECTION = "### Sessions: a history that outlives the process";

describe("README's session example", () => {
  it("runs and compacts", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const at = readme.indexOf(`\n${SECTION}\n`);
    expect(at).toBeGreaterThan(0);
    const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at))?.[1] ?? "";
    const code = block.replace('from "safecut"', `from ${JSON.stringify(join(ROOT, "src/index.ts"))}`);
    expect(code).not.toMatch(/from "safecut/);
    const dir = join(ROOT, ".tmp");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "readme-session.ts");
    writeFileSync(file, code);
    const r = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: ROOT, encoding: "utf8", timeout: 100_000 });
    expect(r.status, r.stderr).toBe(0);
    const m = /^(compacted|compacted-still-due) (\d+) -> (\d+) items; (\d+) steps$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(Number(m?.[3])).toBeLessThan(Number(m?.[2]));
    expect(Number(m?.[4])).toBeGreaterThan(0);
  }, 120_000);
});
