// The CLI as a well-behaved Unix filter, tested on real child processes (node bin/safecut.js):
// a stdout closed by its reader (`| head`) ends the run quietly, SIGTERM/SIGINT while waiting on
// the summarizer leave no temporary file, stale temporary files of killed runs are swept,
// `-o -` is stdout, non-regular outputs (/dev/stdout, /dev/stderr) are written directly, and
// progress is one updating line on a terminal and a line every few seconds otherwise.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import { runCli } from "../../src/cli/main.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { openAIConversation } from "../support/generate.ts";
import { type Imitation, startImitation } from "../support/http-imitation.ts";

const BIN = resolve(import.meta.dirname, "../../bin/safecut.js");
const conv = openAIConversation({ turns: 40, seed: 3 });
const content = JSON.stringify({ model: "gpt-4o-mini", messages: conv }, null, 2);
const hash = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

let root: string;
beforeAll(() => {
  root = tempDir();
});

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A fresh directory holding conv.json. */
function fresh(name: string): string {
  const d = join(root, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, "conv.json"), content);
  return d;
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawns the CLI; `closeStdout` closes the read end of its stdout pipe at once (a reader that went away). */
function spawnCli(args: string[], cwd: string, closeStdout = false): { child: ChildProcess; exit: Promise<Exit> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH } });
  let stdout = "";
  let stderr = "";
  if (closeStdout) child.stdout.destroy();
  else child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  child.stdin.end();
  const exit = new Promise<Exit>((done) => child.on("close", (code, signal) => done({ code, signal, stdout, stderr })));
  return { child, exit };
}

describe("a closed stdout", () => {
  it("--help into a closed pipe: no EPIPE, no stack trace", async () => {
    const r = await spawnCli(["--help"], root, true).exit;
    expect(r.stderr).toBe("");
    expect(r.code).toBe(141);
  });

  it("compact into a closed pipe: quiet, input untouched, no report and no temporary file", async () => {
    const d = fresh("closed-stdout");
    const before = hash(join(d, "conv.json"));
    const r = await spawnCli(
      ["compact", "conv.json", "--progress", "--token-threshold", "3000", "--report", "rep.json"],
      d,
      true,
    ).exit;
    // the progress lines came before the end; nothing after the write failed
    expect(r.stderr).not.toMatch(/EPIPE|error|compacted/);
    expect(r.code).toBe(141);
    expect(hash(join(d, "conv.json"))).toBe(before);
    expect(readdirSync(d)).toEqual(["conv.json"]);
  });

  it("a shell pipeline into head -c 100 prints 100 bytes and nothing on stderr", async () => {
    const d = fresh("head");
    const child = spawn("sh", ["-c", `"${process.execPath}" "${BIN}" compact conv.json --quiet | head -c 100`], {
      cwd: d,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
    child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
    await new Promise((done) => child.on("close", done));
    expect(out).toBe(content.slice(0, 100));
    expect(err).toBe("");
  });
});

describe("SIGTERM and SIGINT while waiting on the summarizer", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)(
    "%s: no temporary file is left, the input is untouched, one line says so, exit %d",
    async (signal, code) => {
      const d = fresh(`signal-${signal}`);
      const before = hash(join(d, "conv.json"));
      let asked!: () => void;
      const requested = new Promise<void>((r) => (asked = r));
      server = await startImitation("openai", () => {
        asked();
        return { kind: "hang" };
      });
      const flags = "compact conv.json --provider openai --token-threshold 3000 -o out.json --report rep.json";
      const run = spawnCli([...flags.split(" "), "--base-url", server.url], d);
      await requested;
      // both temporary files exist while the summarizer is awaited
      expect(readdirSync(d).filter((f) => f.endsWith(".tmp")).length).toBe(2);
      run.child.kill(signal);
      const r = await run.exit;
      expect(r.code).toBe(code);
      // one line says why the run ended (a Ctrl-C without a word looked like a crash)
      // (after any progress line, a step's or the status heartbeat's: a loaded machine may take
      // over a second to get here)
      const lines = r.stderr.split("\n").filter((l) => !/^safecut: (step|\d+\/\d+ stretches done)/.test(l));
      expect(lines).toEqual([`safecut: interrupted by ${signal}: no output written, the input is untouched`, ""]);
      expect(readdirSync(d)).toEqual(["conv.json"]);
      expect(hash(join(d, "conv.json"))).toBe(before);
    },
    30_000,
  );
});

describe("stale temporary files of killed runs", () => {
  it("a run sweeps the temporary files a dead process left beside its output, not those of a live one", async () => {
    const d = fresh("stale");
    // the pid of a process that has exited
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((done) => dead.on("close", done));
    const stale = `.out.json.safecut-${dead.pid}-0badf00d.tmp`;
    const live = `.out.json.safecut-${process.pid}-0badf00d.tmp`;
    const other = `.other.json.safecut-${dead.pid}-0badf00d.tmp`;
    for (const f of [stale, live, other]) writeFileSync(join(d, f), "");
    const r = await runInProcess(["compact", "conv.json", "-o", "out.json"], { cwd: d });
    expect(r.code).toBe(0);
    expect(readdirSync(d).sort()).toEqual([live, other, "conv.json", "out.json"].sort());
  });
});

describe("non-regular outputs and -o -", () => {
  it("-o - writes to stdout (no file named -)", async () => {
    const d = fresh("dash");
    const r = await runInProcess(["compact", "conv.json", "-o", "-"], { cwd: d });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(content);
    expect(readdirSync(d)).toEqual(["conv.json"]);
  });

  it("-o /dev/stdout into a pipe writes the conversation there", async () => {
    const d = fresh("dev-stdout");
    const r = await spawnCli(["compact", "conv.json", "-q", "--token-threshold", "3000", "-o", "/dev/stdout"], d).exit;
    expect(r.stderr).not.toMatch(/\.tmp|error/);
    // still due (40 user turns stay): exit 5, and the conversation written
    expect(r.code).toBe(5);
    expect(readConversationFile(r.stdout).messages.length).toBeLessThan(conv.length);
    expect(readdirSync(d)).toEqual(["conv.json"]);
  });

  it("--report /dev/stderr into a pipe writes the JSON report there", async () => {
    const d = fresh("dev-stderr");
    const r = await spawnCli(["compact", "conv.json", "-q", "--token-threshold", "3000", "--report", "/dev/stderr"], d)
      .exit;
    expect(r.code).toBe(5);
    expect(r.stderr).not.toMatch(/\.tmp|error/);
    expect(r.stderr).toContain('"outcome": "compacted-still-due"');
    expect(readdirSync(d)).toEqual(["conv.json"]);
  });

  it("an unwritable output's message names the output, not a temporary path", async () => {
    const d = fresh("no-dir-msg");
    const r = await runInProcess(["compact", "conv.json", "-o", "/proc/none/out.json"], { cwd: d });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot write --output /proc/none/out.json");
    expect(r.stderr).not.toContain(".tmp");
  });
});

describe("progress", () => {
  /** Runs a many-step compaction in-process with a clock that advances `tick` ms at every reading. */
  async function withClock(tty: boolean, extra: string[] = []): Promise<{ stderr: string; readings: number }> {
    const d = fresh(`progress-${tty}-${extra.join("")}`);
    let now = 1_000_000;
    const spy = vi.spyOn(Date, "now").mockImplementation(() => (now += 200));
    let stderr = "";
    try {
      const code = await runCli(["compact", "conv.json", "--token-threshold", "2000", ...extra], {
        readStdin: async () => "",
        stdout: () => {},
        stderr: (s) => void (stderr += s),
        stderrIsTTY: tty,
        env: {},
        cwd: d,
      });
      expect([0, 5]).toContain(code);
      return { stderr, readings: spy.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  }

  it("not a terminal: at most a line every 5 s of the run, not one per step", async () => {
    const { stderr, readings } = await withClock(false);
    const lines = stderr.split("\n").filter((l) => l.startsWith("safecut: step"));
    // the clock read `readings` times, 200 ms apart: the run lasted readings * 0.2 s
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(1 + Math.floor((readings * 200) / 5000));
  });

  it("a terminal: one line updated in place (carriage returns, no step line of its own) and cleared before the report", async () => {
    const { stderr } = await withClock(true);
    // the line is where the run stands (issue 34: stretches done / planned, calls, tokens, time)
    expect(stderr).toContain("\r\x1b[2Ksafecut: ");
    expect(stderr).toMatch(/safecut: \d+\/\d+ stretches done, \d+ calls? in flight, tokens \d+ → \d+/);
    // what the terminal shows at the end: each row's text after its last carriage return
    const shown = stderr.split("\n").map((l) => l.slice(l.lastIndexOf("\r") + 1));
    expect(shown.filter((l) => l.includes("step ") || l.includes("stretches done")).length).toBe(0);
    expect(stderr).toMatch(/compacted(-still-due)?: /);
  });

  it("--progress on a non-terminal logs every step; the report lists every stretch", async () => {
    const { stderr } = await withClock(false, ["--progress"]);
    const steps = stderr.split("\n").filter((l) => /^safecut: step \d+: replaced/.test(l));
    expect(steps.length).toBeGreaterThan(5);
  });
});
