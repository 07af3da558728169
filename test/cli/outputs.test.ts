// Outputs never destroy inputs: --output and --report are compared with the input and with each
// other by file identity (links followed, hard links included), every conflict and every
// unwritable output is refused before any summarizer call, and writes are atomic.
import { createHash } from "node:crypto";
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import { PendingOutput } from "../../src/cli/outputs.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { openAIConversation } from "../support/generate.ts";
import { factfulAnswer, type Imitation, startImitation } from "../support/http-imitation.ts";
import { clearedResults } from "../support/laws.ts";

let dir: string;
const conv = openAIConversation({ turns: 12 });
const content = JSON.stringify({ model: "gpt-4o-mini", messages: conv });
const hash = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

beforeAll(() => {
  dir = tempDir();
});

/** A fresh input file (and its directory) for one test. */
function input(name: string): { d: string; p: string } {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  const p = join(d, "conv.json");
  writeFileSync(p, content);
  return { d, p };
}

/** An imitation that would compact (and records every call): proves that nothing was asked of it. */
async function countingServer(): Promise<Imitation> {
  server = await startImitation("openai", (_n, req) => ({ kind: "summary", text: factfulAnswer(req) }));
  return server;
}

const due = (url: string) => ["--provider", "openai", "--base-url", url, "--token-threshold", "3000"];

describe("outputs never destroy the input", () => {
  it.each([
    ["a compacting run", ["--token-threshold", "3000"]],
    ["a run with nothing to do", []],
    ["a dry run", ["--token-threshold", "3000", "--dry-run"]],
  ])("--report naming the input is refused with exit 2 in %s", async (_n, flags) => {
    const { d, p } = input(`report-${_n.replace(/ /g, "-")}`);
    const before = hash(p);
    const s = await countingServer();
    const r = await runInProcess(["compact", "conv.json", ...due(s.url), ...flags, "--report", "conv.json"], {
      cwd: d,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--report conv.json is the same file as the input conv.json");
    expect(hash(p)).toBe(before);
    expect(s.requests.length).toBe(0);
  });

  it("-o naming a hard link of the input is refused before any summarizer call", async () => {
    const { d, p } = input("hardlink");
    linkSync(p, join(d, "alias.json"));
    const before = hash(p);
    const s = await countingServer();
    const r = await runInProcess(["compact", "conv.json", ...due(s.url), "-o", "alias.json"], { cwd: d });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--output alias.json is the same file as the input conv.json");
    expect(hash(p)).toBe(before);
    expect(s.requests.length).toBe(0);
  });

  it("--report naming a hard link or a symlink of the input is refused", async () => {
    const { d, p } = input("report-links");
    linkSync(p, join(d, "hard.json"));
    symlinkSync(p, join(d, "soft.json"));
    const before = hash(p);
    const s = await countingServer();
    for (const name of ["hard.json", "soft.json", "./sub/../conv.json"]) {
      const r = await runInProcess(["compact", "conv.json", ...due(s.url), "--report", name], { cwd: d });
      expect(r.code, name).toBe(2);
    }
    expect(hash(p)).toBe(before);
    expect(s.requests.length).toBe(0);
  });

  it("--report and --output naming one file (a new one, or two links of one) are refused", async () => {
    const { d } = input("report-output");
    writeFileSync(join(d, "old.json"), "old");
    linkSync(join(d, "old.json"), join(d, "old-link.json"));
    const s = await countingServer();
    const r1 = await runInProcess(["compact", "conv.json", ...due(s.url), "-o", "new.json", "--report", "./new.json"], {
      cwd: d,
    });
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain("--report ./new.json is the same file as --output new.json");
    const r2 = await runInProcess(
      ["compact", "conv.json", ...due(s.url), "-o", "old.json", "--report", "old-link.json"],
      { cwd: d },
    );
    expect(r2.code).toBe(2);
    expect(readFileSync(join(d, "old.json"), "utf8")).toBe("old");
    expect(s.requests.length).toBe(0);
  });

  it("stdin has no file identity: -o and --report are free", async () => {
    const { d } = input("stdin");
    const r = await runInProcess(
      ["compact", "-", "--token-threshold", "5000", "--target-percent", "90", "-o", "conv.json", "--report", "r.json"],
      { cwd: d, stdin: content },
    );
    expect(r.code).toBe(0);
    // -o holds the compacted conversation: under the default clear-then-summarize, the reported
    // results cleared (clearing alone brought it to the target, 90% of the trigger: every message kept)
    const report = JSON.parse(readFileSync(join(d, "r.json"), "utf8"));
    const out = readConversationFile(readFileSync(join(d, "conv.json"), "utf8")).messages;
    expect(report.clearing.results).toBeGreaterThan(0);
    expect(clearedResults(out)).toBe(report.clearing.results);
    expect(out.length).toBe(conv.length);
  });
});

describe("unwritable outputs are found before the run", () => {
  it.each([
    ["-o", "/nonexistent/dir/x.json"],
    ["--report", "/nonexistent/dir/x.json"],
    ["-o", "."],
    ["--report", "."],
  ])("%s %s: exit 1, no summarizer call, nothing written", async (flag, target) => {
    const { d, p } = input(`unwritable${flag}${target.replace(/\W/g, "_")}`);
    const before = hash(p);
    const s = await countingServer();
    const r = await runInProcess(["compact", "conv.json", ...due(s.url), flag, target], { cwd: d });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot write");
    expect(r.stdout).toBe("");
    expect(s.requests.length).toBe(0);
    expect(hash(p)).toBe(before);
  });

  it("a failed run leaves no temporary file beside the outputs", async () => {
    const { d } = input("no-temp");
    writeFileSync(join(d, "bad.json"), "{oops");
    const r = await runInProcess(["compact", "bad.json", "-o", "out.json", "--report", "rep.json"], { cwd: d });
    expect(r.code).toBe(1);
    expect(readdirSync(d).sort()).toEqual(["bad.json", "conv.json"]);
  });
});

describe("atomic writes", () => {
  it("a write that fails at the rename leaves the target as it was and removes the temporary file", () => {
    const d = join(dir, "atomic-fail");
    mkdirSync(d);
    const target = join(d, "out.json");
    const pending = PendingOutput.open({ label: "--output out.json", path: target });
    // the target becomes a non-empty directory after the open: the rename onto it must fail
    mkdirSync(join(target, "inside"), { recursive: true });
    expect(() => pending.commit("new text")).toThrow(/cannot write --output out.json/);
    expect(readdirSync(d)).toEqual(["out.json"]);
    expect(readdirSync(target)).toEqual(["inside"]);
  });

  it("replaces an existing file in place, keeping its mode, and follows a symlink to it", () => {
    const d = join(dir, "atomic-ok");
    mkdirSync(d);
    const real = join(d, "real.json");
    writeFileSync(real, "old", { mode: 0o640 });
    symlinkSync(real, join(d, "link.json"));
    PendingOutput.open({ label: "--output link.json", path: join(d, "link.json") }).commit("new");
    expect(readFileSync(real, "utf8")).toBe("new");
    expect(readdirSync(d).sort()).toEqual(["link.json", "real.json"]);
  });

  it("abandon removes the temporary file and leaves no trace", () => {
    const d = join(dir, "atomic-abandon");
    mkdirSync(d);
    const pending = PendingOutput.open({ label: "--output x", path: join(d, "x.json") });
    expect(readdirSync(d).length).toBe(1);
    pending.abandon();
    expect(readdirSync(d)).toEqual([]);
    rmSync(d, { recursive: true });
  });
});

describe("nothing fails after the work is done", () => {
  /** A conversation whose message `at` carries a field nested `depth` levels deep. */
  function deepFile(depth: number, at: number): string {
    const parts = conv.map((m, i) => {
      const j = JSON.stringify(m);
      return i === at ? `${j.slice(0, -1)},"extra":${'{"a":'.repeat(depth)}{}${"}".repeat(depth)}}` : j;
    });
    return `{"model":"gpt-4o-mini","messages":[${parts.join(",")}]}`;
  }

  it("a field nested 5,000 deep is refused when read: exit 1 naming where, no stack trace, no summarizer call", async () => {
    const { d } = input("deep");
    writeFileSync(join(d, "deep.json"), deepFile(5000, 1));
    const s = await countingServer();
    const r = await runInProcess(["compact", "deep.json", ...due(s.url), "-o", "out.json"], { cwd: d });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^safecut: error: deep\.json:1:\d+: arrays and objects nested more than 256 levels deep/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(s.requests.length).toBe(0);
    expect(readdirSync(d).sort()).toEqual(["conv.json", "deep.json"]);
  });

  it("a field nested 200 deep in a kept message is accepted and written back", async () => {
    const { d } = input("deep-ok");
    writeFileSync(join(d, "deep.json"), deepFile(200, 1));
    const r = await runInProcess(["compact", "deep.json", "--token-threshold", "5000"], { cwd: d });
    expect(r.code).toBe(0);
    let v = (JSON.parse(r.stdout) as { messages: { extra?: unknown }[] }).messages[1].extra;
    let depth = 0;
    while (typeof v === "object" && v !== null && "a" in v) {
      v = (v as { a: unknown }).a;
      depth++;
    }
    expect(depth).toBe(200);
  });

  it("an unexpected error prints one line, no stack trace (SAFECUT_DEBUG=1 adds it)", async () => {
    const { runCli } = await import("../../src/cli/main.ts");
    const run = async (env: Record<string, string>, hook?: () => void) => {
      let stderr = "";
      const code = await runCli(["compact", "-", "-o", "out.json"], {
        // a bug stand-in: reading stdin throws a plain TypeError, not a SafecutError
        readStdin: async () => (hook === undefined ? Promise.reject(new TypeError("boom")) : content),
        stdout: () => {},
        stderr: (x) => void (stderr += x),
        env,
        cwd: dir,
        ...(hook ? { beforeRename: hook } : {}),
      });
      return { code, stderr };
    };
    const plain = await run({});
    expect(plain.code).toBe(4);
    expect(plain.stderr).toBe("safecut: internal error (a bug in safecut, please report it): boom\n");
    const debug = await run({ SAFECUT_DEBUG: "1" });
    expect(debug.stderr).toMatch(/boom\nTypeError: boom\n\s+at /);
    // a failure while writing an output is an unwritable output (exit 1), not a bug
    const write = await run({}, () => {
      throw new TypeError("disk on fire");
    });
    expect(write.code).toBe(1);
    expect(write.stderr).toContain("cannot write --output out.json: disk on fire");
  });
});

describe("a kill mid-write", () => {
  it("leaves the old file (killed after the temporary file is written, before the rename), and a finished run the complete new one", async () => {
    const { spawn } = await import("node:child_process");
    const { existsSync } = await import("node:fs");
    const { d } = input("kill");
    const target = join(d, "out.json");
    writeFileSync(target, "OLD CONTENT\n");
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(import.meta.dirname, "../support/pausing-cli.ts"),
        "compact",
        join(d, "conv.json"),
        "--token-threshold",
        "5000",
        "--target-percent",
        "90",
        "-o",
        target,
      ],
      { cwd: join(import.meta.dirname, "../..") },
    );
    let stderr = "";
    const paused = await new Promise<{ temp: string; target: string }>((done, fail) => {
      child.stderr.on("data", (b: Buffer) => {
        stderr += b.toString("utf8");
        const m = /paused (.*)\n/.exec(stderr);
        if (m !== null) done(JSON.parse(m[1]) as { temp: string; target: string });
      });
      child.on("exit", (code) => fail(new Error(`exited ${code} before pausing: ${stderr}`)));
    });
    // the complete new text is in the temporary file beside the target; the target is untouched
    expect(paused.target).toBe(target);
    expect(join(paused.temp, "..")).toBe(d);
    const complete = readConversationFile(readFileSync(paused.temp, "utf8"));
    // the compacted conversation: under the default clear-then-summarize, old results cleared
    // (clearing alone reaches the target, 90% of the trigger: every message kept)
    expect(complete.messages.length).toBe(conv.length);
    expect(clearedResults(complete.messages)).toBeGreaterThan(0);
    expect(readFileSync(target, "utf8")).toBe("OLD CONTENT\n");
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on("exit", (_c, sig) => done(sig)));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    expect(readFileSync(target, "utf8")).toBe("OLD CONTENT\n");
    // SIGKILL cannot be handled: the temporary file stays until the next run beside it sweeps it
    // (its process is dead), and that run leaves the complete new file and no temporary file
    const killedText = readFileSync(paused.temp, "utf8");
    const r = await runInProcess(
      ["compact", "conv.json", "--token-threshold", "5000", "--target-percent", "90", "-o", "out.json"],
      { cwd: d },
    );
    expect(r.code).toBe(0);
    expect(readFileSync(target, "utf8")).toBe(killedText);
    expect(existsSync(paused.temp)).toBe(false);
    expect(readdirSync(d).sort()).toEqual(["conv.json", "out.json"]);
  }, 60_000);
});
