// `safecut session ...` end to end in-process: import, append, compact, show, export.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { turn } from "./conversation.ts";

const jsonl = (items: readonly object[]) => items.map((x) => `${JSON.stringify(x)}\n`).join("");

describe("safecut session", () => {
  it("imports, appends, compacts with the compact report and exit code, shows and exports", async () => {
    const cwd = tempDir();
    const first = `{"role": "system", "content": "be brief"}\n${jsonl(Array.from({ length: 10 }, (_, i) => turn(`i${i}`)).flat())}`;
    writeFileSync(join(cwd, "conv.jsonl"), first);
    writeFileSync(join(cwd, "more.jsonl"), jsonl(turn("more")));

    let r = await runInProcess(["session", "import", "conv.jsonl", "--to", "s.jsonl", "--format", "openai"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    // nothing compacted: export is the imported file, byte for byte
    r = await runInProcess(["session", "export", "s.jsonl", "-o", "out.jsonl"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(cwd, "out.jsonl"), "utf8")).toBe(first);
    r = await runInProcess(["session", "import", "conv.jsonl", "--to", "s.jsonl", "--format", "openai"], { cwd });
    expect(r.code).toBe(2);

    r = await runInProcess(["session", "append", "s.jsonl", "more.jsonl"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    r = await runInProcess(
      // (tiny turns: no floor, each is worth a call)
      [
        "session",
        "compact",
        "s.jsonl",
        "--token-threshold",
        "600",
        "--retention-window",
        "4",
        "--tokenizer",
        "chars",
        "--min-stretch-tokens",
        "0",
      ],
      { cwd },
    );
    expect([0, 5], r.stderr).toContain(r.code);
    expect(r.stderr).toMatch(/compacted/);

    r = await runInProcess(["session", "show", "s.jsonl", "--full"], { cwd });
    expect(r.stdout).toBe(first + jsonl(turn("more")));
    r = await runInProcess(["session", "show", "s.jsonl", "--compactions"], { cwd });
    const records = JSON.parse(r.stdout) as { decision: string }[];
    expect(records.length).toBeGreaterThan(0);
    r = await runInProcess(["session", "show", "s.jsonl"], { cwd });
    const context = r.stdout.trim().split("\n");
    expect(context.length).toBeLessThan(45);
    expect(context[0]).toBe('{"role": "system", "content": "be brief"}');
  });

  it("refuses a foreign file as a session with exit code 1, naming the line", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "x.jsonl"), jsonl(turn("x")));
    const r = await runInProcess(["session", "show", "x.jsonl"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/x\.jsonl line 1: not a safecut session log/);
  });
});
