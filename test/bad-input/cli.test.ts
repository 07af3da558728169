// The bad-input corpus through the `safecut` command: malformed conversation files, malformed
// config files and malformed numeric flags. Every run must exit 0/3 with a readable conversation
// on stdout, or 1/2 with one `safecut: error: <where>: <what>` line and no stack trace; never 4
// (internal) and never a crash; and neither the input file nor the config file may change by a
// single byte. Most cases run the CLI in-process (runCli, fast); a sample spawns the real
// `node bin/safecut.js` to cover the process boundary too.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import type { Json } from "../../src/model/json.ts";
import { type CliResult, runInProcess, runProcess, tempDir } from "../support/cli-run.ts";
import { conversationText, fileShape, garble, garbleText, step } from "./corpus.ts";

let dir: string;
beforeAll(() => {
  dir = tempDir();
});

const flagValue = fc.constantFrom("NaN", "-5", "0", "1.5", "1e400", "abc", "", "9007199254740993", "none", "100");
const numericFlag = fc.constantFrom(
  "--max-tokens",
  "--token-threshold",
  "--message-threshold",
  "--turn-threshold",
  "--retention-window",
  "--context-window",
  "--reserve-tokens",
  "--keep-recent-tokens",
  "--timeout-ms",
);
const configValue: fc.Arbitrary<Json> = fc.constantFrom<Json>(null, -1, 0, 1.5, "x", [], {}, true, 1e308, 60);
const configFile = fc.oneof(
  fc.constantFrom(
    "",
    "{",
    "[]",
    "42",
    "null",
    '{"max_tokens": "lots"}',
    '{"retention_window": 0}',
    '{"unknown_setting": 1}',
    '{"token_threshold": null}',
    '{"summary_tag": ""}',
  ),
  fc
    .dictionary(
      fc.constantFrom(
        "max_tokens",
        "token_threshold",
        "retention_window",
        "summary_tag",
        "context_window",
        "keep_recent_tokens",
        "bogus",
      ),
      configValue,
      { maxKeys: 3 },
    )
    .map((o) => JSON.stringify(o)),
);

const cliCase = fc.record({
  steps: fc.array(step, { minLength: 2, maxLength: 12 }),
  shape: fileShape,
  damage: fc.array(garble, { maxLength: 2 }),
  flags: fc.array(fc.tuple(numericFlag, flagValue), { maxLength: 2 }),
  config: fc.option(configFile, { nil: undefined }),
});
type CliCase = typeof cliCase extends fc.Arbitrary<infer T> ? T : never;

let caseNo = 0;
/** Writes the case's files and returns the arguments plus the paths whose bytes must not change. */
function prepare(c: CliCase): { args: string[]; files: string[] } {
  const k = caseNo++;
  const input = join(dir, `in-${k}.${c.shape.endsWith("jsonl") ? "jsonl" : "json"}`);
  writeFileSync(input, garbleText(conversationText(c.steps, c.shape), c.damage));
  const args = ["compact", input, "--tokenizer", "chars", "--token-threshold", "60", "--retention-window", "2"];
  const files = [input];
  for (const [flag, value] of c.flags) args.push(`${flag}=${value}`);
  if (c.config !== undefined) {
    const cfg = join(dir, `cfg-${k}.json`);
    writeFileSync(cfg, c.config);
    args.push("--config", cfg);
    files.push(cfg);
  }
  return { args, files };
}

/** The verdict on one run: a readable result, or one clear error line. */
function expectClearOutcome(r: CliResult): void {
  expect(r.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/); // no stack trace, no internal error
  expect([0, 1, 2, 3, 5]).toContain(r.code);
  if (r.code === 0 || r.code === 3 || r.code === 5) {
    expect(() => readConversationFile(r.stdout)).not.toThrow();
    if (r.code === 3) expect(r.stderr).toMatch(/degraded|failed/);
    if (r.code === 5) expect(r.stderr).toMatch(/still-due/);
    return;
  }
  if (r.code === 1) {
    // one error line saying where ("safecut: error: <path or field>: <what>"), or what is wrong
    // with the input as a whole (the same exemptions as the library's InputError without a path)
    expect(r.stderr).toMatch(
      /^safecut: error: (\S.*: .+|.*(input is empty|invalid JSON|expected an array of messages).*)$/m,
    );
  } else {
    expect(r.stderr.trim().length).toBeGreaterThan(10); // a usage error explains itself
  }
  expect(r.stdout).toBe("");
}

function snapshotBytes(files: readonly string[]): Buffer[] {
  return files.map((f) => readFileSync(f));
}

describe("the CLI on malformed files, config files and flags", () => {
  it("in process: a clear error or a readable result; input and config bytes unchanged", async () => {
    let errors = 0;
    await fc.assert(
      fc.asyncProperty(cliCase, async (c) => {
        const { args, files } = prepare(c);
        const before = snapshotBytes(files);
        const r = await runInProcess(args, { cwd: dir, env: {} });
        if (process.env.BAD_INPUT_LOG) console.log(`code ${r.code}: ${r.stderr.split("\n")[0]}`);
        expectClearOutcome(r);
        if (r.code === 1 || r.code === 2) errors++;
        snapshotBytes(files).forEach((b, i) => expect(b.equals(before[i]), `${files[i]} changed`).toBe(true));
      }),
      { numRuns: 1_500 },
    );
    expect(errors).toBeGreaterThan(25);
  });

  it("as a real process: the same verdicts across the process boundary", async () => {
    const cases = fc.sample(cliCase, { numRuns: 6, seed: 42 });
    const runs = cases.map((c) => prepare(c));
    // two hand-written files make sure both verdicts are exercised whatever the sample holds
    const good = join(dir, "good.json");
    writeFileSync(
      good,
      conversationText(
        fc.sample(fc.array(step, { minLength: 8, maxLength: 8 }), { numRuns: 1, seed: 1 })[0],
        "openai-json",
      ),
    );
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, '{"role":"user","content":"hi"}\n{"role": "assistant", "content": \n');
    runs.unshift(
      { args: ["compact", good, "--tokenizer", "chars"], files: [good] },
      { args: ["compact", bad], files: [bad] },
    );
    const before = runs.map((r) => snapshotBytes(r.files));
    const results = await Promise.all(runs.map((r) => runProcess(r.args, { cwd: dir, env: {} })));
    results.forEach((r, i) => {
      expectClearOutcome(r);
      snapshotBytes(runs[i].files).forEach((b, k) =>
        expect(b.equals(before[i][k]), `${runs[i].files[k]} changed`).toBe(true),
      );
    });
    expect(results[0].code).toBe(0);
    expect(results[1].code).toBe(1);
    expect(results[1].stderr).toMatch(/^safecut: error: line 2: invalid JSON/m);
  }, 60_000);
});
