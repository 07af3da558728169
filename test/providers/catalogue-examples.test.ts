// The README's provider examples as written, with no limit typed: the model catalogue gives
// each summarizer model's window and output cap, so every request fits servers that enforce
// them with the provider's own 400s (test/support/model-servers.ts). Without the catalogue the
// OpenAI example asks gpt-4o-mini for more than its 16,384 output tokens and is refused.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import {
  CLAUDE_HAIKU_4_5,
  GPT_4O_MINI,
  LLAMA3_8K,
  type ModelServer,
  startModelServer,
} from "../support/model-servers.ts";

const examples = resolve(import.meta.dirname, "../../examples");
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const README = [
  { file: "session.openai.json", flags: ["--provider", "openai"], limits: GPT_4O_MINI },
  {
    file: "session.anthropic.jsonl",
    flags: ["--provider", "anthropic", "--model", "claude-haiku-4-5"],
    limits: CLAUDE_HAIKU_4_5,
  },
  { file: "session.openai.json", flags: ["--provider", "openai", "--model", "llama3"], limits: LLAMA3_8K },
] as const;

describe("the README's provider examples with the limits from the model catalogue", () => {
  for (const ex of README)
    it(`${ex.limits.model}: succeeds with no limit flag, every request within the window and the output cap`, async () => {
      server = await startModelServer(ex.limits);
      const dir = tempDir();
      const r = await runInProcess(
        [
          "compact",
          join(examples, ex.file),
          ...ex.flags,
          "--token-threshold",
          "8000",
          "--strategy",
          "summarize",
          "--base-url",
          server.url,
          "--report",
          "report.json",
          "-o",
          "out.json",
        ],
        { cwd: dir, env: { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test" } },
      );
      const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
      expect(r.code, r.stderr).toBe(0);
      expect(report.outcome).toBe("compacted");
      expect(server.seen.length).toBeGreaterThan(0);
      for (const x of server.seen) {
        expect(x.refusal).toBeUndefined();
        expect(x.maxTokens).toBeLessThanOrEqual(ex.limits.outputCap ?? ex.limits.window);
        expect(x.inputTokens + x.maxTokens).toBeLessThanOrEqual(ex.limits.window);
      }
      expect(report.modelLimits.summarizer_window).toMatchObject({ source: "catalogue", value: ex.limits.window });
      if (ex.limits.outputCap !== null)
        expect(report.modelLimits.summarizer_output_cap).toMatchObject({
          source: "catalogue",
          value: ex.limits.outputCap,
        });
    }, 120_000);
});
