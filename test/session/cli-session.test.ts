// `safecut session ...` end to end in-process: import, append, compact, show, export.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { backends, removeFresh } from "./backends.ts";
import { turn } from "./conversation.ts";

afterAll(removeFresh);

const jsonl = (items: readonly object[]) => items.map((x) => `${JSON.stringify(x)}\n`).join("");

describe("safecut session", () => {
  it.each(backends)(
    "imports, appends, compacts with the compact report and exit code, shows and exports: $name",
    async (backend) => {
      const cwd = tempDir();
      const at = backend.fresh();
      const first = `{"role": "system", "content": "be brief"}\n${jsonl(Array.from({ length: 10 }, (_, i) => turn(`i${i}`)).flat())}`;
      writeFileSync(join(cwd, "conv.jsonl"), first);
      writeFileSync(join(cwd, "more.jsonl"), jsonl(turn("more")));

      let r = await runInProcess(["session", "import", "conv.jsonl", "--to", at, "--format", "openai"], { cwd });
      expect(r.code, r.stderr).toBe(0);
      // nothing compacted: export is the imported file, byte for byte
      r = await runInProcess(["session", "export", at, "-o", "out.jsonl"], { cwd });
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(join(cwd, "out.jsonl"), "utf8")).toBe(first);
      r = await runInProcess(["session", "import", "conv.jsonl", "--to", at, "--format", "openai"], { cwd });
      expect(r.code).toBe(2);

      r = await runInProcess(["session", "append", at, "more.jsonl"], { cwd });
      expect(r.code, r.stderr).toBe(0);
      r = await runInProcess(
        // (tiny turns: no floor, each is worth a call)
        [
          "session",
          "compact",
          at,
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

      r = await runInProcess(["session", "show", at, "--full"], { cwd });
      expect(r.stdout).toBe(first + jsonl(turn("more")));
      r = await runInProcess(["session", "show", at, "--compactions"], { cwd });
      const records = JSON.parse(r.stdout) as { decision: string }[];
      expect(records.length).toBeGreaterThan(0);
      r = await runInProcess(["session", "show", at], { cwd });
      const context = r.stdout.trim().split("\n");
      expect(context.length).toBeLessThan(45);
      expect(context[0]).toBe('{"role": "system", "content": "be brief"}');
    },
  );

  it.each(backends)(
    "compacts with --memory-candidates; show --memory and stats give the stored candidates: $name",
    async (backend) => {
      const cwd = tempDir();
      const at = backend.fresh();
      const turns = Array.from({ length: 12 }, (_, i) => {
        const [question, ...rest] = turn(`mm${i}`);
        return [{ ...question, content: `${question.content}. Never edit gen${i}.ts by hand.` }, ...rest];
      });
      writeFileSync(join(cwd, "conv.jsonl"), jsonl(turns.flat()));
      let r = await runInProcess(["session", "import", "conv.jsonl", "--to", at, "--format", "openai"], { cwd });
      expect(r.code, r.stderr).toBe(0);
      r = await runInProcess(
        [
          "session",
          "compact",
          at,
          "--token-threshold",
          "600",
          "--retention-window",
          "4",
          "--tokenizer",
          "chars",
        ].concat(["--min-stretch-tokens", "0", "--strategy", "summarize", "--memory-candidates", "2"]),
        { cwd },
      );
      expect([0, 5], r.stderr).toContain(r.code);
      r = await runInProcess(["session", "show", at, "--memory"], { cwd });
      expect(r.code, r.stderr).toBe(0);
      const shown = JSON.parse(r.stdout) as { text: string; tag: string }[];
      expect(shown.length).toBeGreaterThan(0);
      for (const c of shown) {
        expect(c.tag).toBe("safety_boundary");
        expect(c.text).toMatch(/^Never edit gen\d+\.ts by hand\.$/);
      }
      r = await runInProcess(["session", "stats", at], { cwd });
      expect(r.stdout).toContain(`memory candidates  ${shown.length} stored with the compactions`);
    },
  );

  it.each(backends)("clears, lists the clearing, and restores a cleared result: $name", async (backend) => {
    const cwd = tempDir();
    const at = backend.fresh();
    writeFileSync(join(cwd, "conv.jsonl"), jsonl(Array.from({ length: 12 }, (_, i) => turn(`k${i}`)).flat()));
    let r = await runInProcess(["session", "import", "conv.jsonl", "--to", at, "--format", "openai"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    r = await runInProcess(
      [
        "session",
        "compact",
        at,
        "--strategy",
        "clear",
        "--clear-at-least",
        "0",
        "--token-threshold",
        "600",
        "--retention-window",
        "4",
        "--tokenizer",
        "chars",
      ],
      { cwd },
    );
    expect([0, 5], r.stderr).toContain(r.code);
    r = await runInProcess(["session", "show", at, "--clearings"], { cwd });
    const [record] = JSON.parse(r.stdout) as { results: { toolCallId: string }[] }[];
    const id = record.results[0].toolCallId;
    r = await runInProcess(["session", "show", at], { cwd });
    expect(r.stdout).not.toContain(`result ${id.slice(5)} `);
    r = await runInProcess(["session", "restore", at, id], { cwd });
    expect(r.code, r.stderr).toBe(0);
    r = await runInProcess(["session", "show", at], { cwd });
    expect(r.stdout).toContain(`result ${id.slice(5)} `);
    r = await runInProcess(["session", "restore", at, id], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not cleared/);
  });

  it("refuses a foreign file as a session with exit code 1, naming the line", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "x.jsonl"), jsonl(turn("x")));
    const r = await runInProcess(["session", "show", "x.jsonl"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/x\.jsonl line 1: not a safecut session log/);
  });
});

describe("safecut session import reads what compact reads, all or nothing", () => {
  const examples = join(import.meta.dirname, "../../examples");

  it.each(backends)(
    "imports the shipped request body and JSONL examples, detecting the format: $name",
    async (backend) => {
      const cwd = tempDir();
      const body = JSON.parse(readFileSync(join(examples, "session.openai.json"), "utf8")) as { messages: object[] };
      const at = backend.fresh();
      let r = await runInProcess(["session", "import", join(examples, "session.openai.json"), "--to", at], { cwd });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`imported ${body.messages.length} items into .* \\(openai\\)`));
      r = await runInProcess(["session", "show", at, "--full"], { cwd });
      const lines = r.stdout.trim().split("\n");
      expect(lines.map((l) => JSON.parse(l) as object)).toEqual(body.messages);
      // each item as written, only the pretty-printing's whitespace gone
      expect(lines[0]).toBe(JSON.stringify(body.messages[0]));

      const anthropic = readFileSync(join(examples, "session.anthropic.jsonl"), "utf8");
      const at2 = backend.fresh();
      r = await runInProcess(["session", "import", join(examples, "session.anthropic.jsonl"), "--to", at2], { cwd });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/\(anthropic\)/);
      r = await runInProcess(["session", "show", at2, "--full"], { cwd });
      expect(r.stdout).toBe(anthropic);
    },
  );

  it.each(backends)(
    "an Anthropic body's system is the first item; numbers are kept as written: $name",
    async (backend) => {
      const cwd = tempDir();
      writeFileSync(
        join(cwd, "body.json"),
        '{\n  "model": "claude-haiku-4-5",\n  "system": "be brief",\n  "messages": [\n    {"role": "user", "content": [{"type": "text", "text": "hi"}], "n": 12345678901234567890, "f": 1.0}\n  ]\n}\n',
      );
      const at = backend.fresh();
      let r = await runInProcess(["session", "import", "body.json", "--to", at], { cwd });
      expect(r.code, r.stderr).toBe(0);
      r = await runInProcess(["session", "show", at, "--full"], { cwd });
      expect(r.stdout).toBe(
        '{"system":"be brief"}\n{"role": "user", "content": [{"type": "text", "text": "hi"}], "n": 12345678901234567890, "f": 1.0}\n',
      );
    },
  );

  it.each(backends)("a refused import leaves no session behind, and the retry succeeds: $name", async (backend) => {
    const cwd = tempDir();
    const at = backend.fresh();
    writeFileSync(join(cwd, "orphan.jsonl"), jsonl([{ role: "tool", tool_call_id: "call-nowhere", content: "x" }]));
    writeFileSync(join(cwd, "conv.jsonl"), jsonl(turn("a")));
    let r = await runInProcess(["session", "import", "orphan.jsonl", "--to", at, "--format", "openai"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/orphan tool result/);
    r = await runInProcess(["session", "show", at], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no session at/);
    r = await runInProcess(["session", "import", "conv.jsonl", "--to", at, "--format", "openai"], { cwd });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe("safecut session compact takes compact's run flags; append says what it did", () => {
  const small = [
    "--token-threshold",
    "600",
    "--retention-window",
    "4",
    "--tokenizer",
    "chars",
    "--min-stretch-tokens",
    "0",
  ];

  it.each(backends)("--dry-run, --report, --quiet, --progress and the exit codes: $name", async (backend) => {
    const cwd = tempDir();
    const at = backend.fresh();
    writeFileSync(join(cwd, "conv.jsonl"), jsonl(Array.from({ length: 10 }, (_, i) => turn(`d${i}`)).flat()));
    writeFileSync(join(cwd, "more.jsonl"), jsonl(turn("more")));
    let r = await runInProcess(["session", "import", "conv.jsonl", "--to", at], { cwd });
    expect(r.code, r.stderr).toBe(0);
    r = await runInProcess(["session", "append", at, "more.jsonl"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/appended 4 items to .* \(now at version 44\)/);

    // the plan on stdout, nothing written
    r = await runInProcess(["session", "compact", at, "--dry-run", ...small], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { format: string; due: boolean; plannedStretch: { first: number } | null };
    expect(plan.format).toBe("openai");
    expect(plan.due).toBe(true);
    expect(plan.plannedStretch).not.toBeNull();
    r = await runInProcess(["session", "show", at, "--compactions"], { cwd });
    expect(JSON.parse(r.stdout)).toEqual([]);

    // the report as JSON in the file, stderr its summary line and reason only
    r = await runInProcess(["session", "compact", at, "--report", "report.json", ...small], { cwd });
    expect([0, 5], r.stderr).toContain(r.code);
    const report = JSON.parse(readFileSync(join(cwd, "report.json"), "utf8")) as { outcome: string; session: string };
    expect(report.outcome).toMatch(/^compacted/);
    expect(report.session).toBe(at);
    expect(r.stderr.trim().split("\n").length).toBeLessThanOrEqual(3);

    // nothing to do: --quiet prints nothing
    r = await runInProcess(["session", "compact", at, "--quiet", "--token-threshold", "1000000"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    r = await runInProcess(["session", "compact", at, "--quiet", "--progress"], { cwd });
    expect(r.code).toBe(2);
  });

  it("a missing session is reported as missing", async () => {
    const cwd = tempDir();
    const r = await runInProcess(["session", "compact", "nothing-here.jsonl"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no session at nothing-here\.jsonl: create one with safecut session import/);
  });
});
