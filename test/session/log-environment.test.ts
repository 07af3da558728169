// The log's environment errors from the command line: a directory where the session or its lock
// goes, a path through a file, a dangling symbolic link at `import --to`. Each is exit 1 with a
// message naming the path and what to check (never exit 4, "a bug in safecut"), and nothing is
// created where it should not be.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSession } from "../../src/session/open.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { logBackend, removeFresh } from "./backends.ts";
import { turn } from "./conversation.ts";

afterAll(removeFresh);

const jsonl = (items: readonly object[]) => items.map((x) => `${JSON.stringify(x)}\n`).join("");

describe("session log: environment errors", () => {
  it("a directory at the session's path: exit 1 naming it", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "s.jsonl"));
    const r = await runInProcess(["session", "show", "s.jsonl"], { cwd });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/s\.jsonl: opening the session log: a directory is in the way/);
  });

  it("a directory where the session's lock goes: exit 1 naming it, nothing written", async () => {
    const cwd = tempDir();
    const at = join(cwd, "s.jsonl");
    await (await openSession(at, { format: "openai" })).close();
    const { logLockFiles } = await import("../../src/session/lock-files.ts");
    const lock = logLockFiles(at, "lock")[0];
    mkdirSync(lock);
    writeFileSync(join(cwd, "more.jsonl"), jsonl(turn("m")));
    const r = await runInProcess(["session", "append", "s.jsonl", "more.jsonl"], { cwd });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${lock}: taking the session's lock: a directory is in the way`);
    const s = await openSession(at);
    expect(await s.version()).toBe(0);
    await s.close();
  });

  it("a path through a file: exit 1 naming it", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "conv.jsonl"), jsonl(turn("c")));
    writeFileSync(join(cwd, "plain"), "");
    const r = await runInProcess(["session", "import", "conv.jsonl", "--to", "plain/s.jsonl", "--format", "openai"], {
      cwd,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/plain\/s\.jsonl: creating the session log: a part of the path is not a directory/);
  });

  it("a dangling symbolic link at import --to: exit 1 naming both, nothing created at its target", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "conv.jsonl"), jsonl(turn("d")));
    const target = join(logBackend.fresh(), "..", "gone.jsonl");
    symlinkSync(target, join(cwd, "s.jsonl"));
    const r = await runInProcess(["session", "import", "conv.jsonl", "--to", "s.jsonl", "--format", "openai"], {
      cwd,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/s\.jsonl: a symbolic link to .*gone\.jsonl, which does not exist/);
    expect(existsSync(target)).toBe(false);
  });

  it("import --checksums creates a log whose every item line holds its checksum", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "conv.jsonl"), jsonl(turn("c")));
    const r = await runInProcess(
      ["session", "import", "conv.jsonl", "--to", "s.jsonl", "--format", "openai", "--checksums"],
      { cwd },
    );
    expect(r.code, r.stderr).toBe(0);
    const [header, ...items] = readFileSync(join(cwd, "s.jsonl"), "utf8").trimEnd().split("\n");
    expect(JSON.parse(header)).toMatchObject({ checksums: true });
    expect(items).toHaveLength(4);
    for (const l of items) expect(l).toMatch(/^\{"seq":\d+,"t":"item","crc":"[0-9a-f]{8}","item":/);
  });
});
