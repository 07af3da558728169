// The session examples run as written, with their `safecut` import pointed at this checkout's
// sources: README's compacts a session and prints the outcome and the item counts; the first of
// docs/sessions.md kills an agent in a child process and resumes it from its session.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const SECTION = "## Sessions: a history that outlives the process";

/** The text of README's session section, or the whole of docs/sessions.md. */
function sessionText(page: "README" | "docs"): string {
  if (page === "docs") return readFileSync(join(ROOT, "docs/sessions.md"), "utf8");
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf(`\n${SECTION}\n`);
  expect(at).toBeGreaterThan(0);
  return readme.slice(at, readme.indexOf("\n## ", at + SECTION.length));
}

/** The first ts block of that text, its import pointed at the sources, written to a file to run. */
function sessionBlock(page: "README" | "docs"): string {
  const block = /```ts\n([\s\S]*?)```/.exec(sessionText(page))?.[1] ?? "";
  const code = block.replace('from "safecut"', `from ${JSON.stringify(join(ROOT, "src/index.ts"))}`);
  expect(code).not.toMatch(/from "safecut/);
  const dir = join(ROOT, ".tmp");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `readme-session-${page}.ts`);
  writeFileSync(file, code);
  return file;
}

describe("the session examples", () => {
  it("runs and compacts", () => {
    const file = sessionBlock("README");
    const r = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: ROOT, encoding: "utf8", timeout: 100_000 });
    expect(r.status, r.stderr).toBe(0);
    const m = /^(compacted|compacted-still-due) (\d+) -> (\d+) items; (\d+) steps$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(Number(m?.[3])).toBeLessThan(Number(m?.[2]));
    expect(Number(m?.[4])).toBeGreaterThan(0);
  }, 120_000);

  it("kills an agent and resumes it from its session, every step asked once", () => {
    const file = sessionBlock("docs");
    const r = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: ROOT, encoding: "utf8", timeout: 100_000 });
    expect(r.status, r.stderr).toBe(0);
    const m = /^killed, resumed at step (\d+): (\d+) steps asked, (\d+) distinct; (\d+) compactions$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(12);
    expect(Number(m?.[1])).toBeLessThan(20);
    expect(Number(m?.[2])).toBe(20);
    expect(Number(m?.[3])).toBe(20);
    expect(Number(m?.[4])).toBeGreaterThan(0);
  }, 120_000);
});
