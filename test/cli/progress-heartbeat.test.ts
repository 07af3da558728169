// Progress never goes silent (issue 34, part 3): with a summarizer that takes 8 s a call, a
// terminal's line is redrawn at least every second and a pipe gets a status line at least every
// few seconds, from the first second of the run to its end; the line says how far the run is
// (stretches done / planned, calls in flight, tokens before → now → target, elapsed). --quiet
// prints nothing. The run is the CLI's own wiring (runProgress) around compactMessages.
import { describe, expect, it } from "vitest";
import { generateConversation } from "../../bench/conversation.ts";
import { runProgress } from "../../src/cli/run-telling.ts";
import { compactMessages } from "../../src/library/compact-messages.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { slowSummarizer } from "../support/slow-summarizer.ts";

const DELAY_MS = 8_000;
const messages = generateConversation(300, { seed: 9 });
const config = { token_threshold: 20_000, tokenizer: "chars" as const, strategy: "summarize" as const };

/** Runs one compaction with the CLI's progress on a stderr that records when each write came. */
async function run(
  tty: boolean,
  flags: Record<string, boolean> = {},
): Promise<{ at: number[]; text: string; ms: number }> {
  const at: number[] = [];
  let text = "";
  const t0 = Date.now();
  const io = {
    readStdin: async () => "",
    stdout: () => {},
    stderr: (s: string) => {
      at.push(Date.now() - t0);
      text += s;
    },
    stderrIsTTY: tty,
    env: {},
    cwd: ".",
  };
  const { progress, onProgress, onState } = runProgress(flags, io);
  const r = await compactMessages(messages, config, {
    summarizer: slowSummarizer(DELAY_MS),
    counter: charCounter(),
    onProgress,
    onState,
  });
  progress.finish();
  expect(r.report.stretches.length).toBeGreaterThan(0);
  return { at, text, ms: Date.now() - t0 };
}

/** The longest silence on stderr between the first second and the end of the run. */
function longestSilence(at: readonly number[], ms: number): number {
  const marks = [1_000, ...at.filter((t) => t >= 1_000), ms];
  let gap = 0;
  for (let i = 1; i < marks.length; i++) gap = Math.max(gap, marks[i] - marks[i - 1]);
  return gap;
}

describe("progress while a summarizer call takes 8 s", () => {
  it("a pipe: a line at least every few seconds, saying how far the run is", async () => {
    const r = await run(false);
    expect(r.ms).toBeGreaterThan(DELAY_MS);
    expect(longestSilence(r.at, r.ms), r.text).toBeLessThanOrEqual(6_500);
    expect(r.text).toMatch(
      /safecut: 0\/\d+ stretches done, 1 call in flight, tokens \d+ → \d+ → target \d+, 0:0\d elapsed/,
    );
  }, 60_000);

  it("a terminal: the line is redrawn at least every second (a heartbeat)", async () => {
    const r = await run(true);
    expect(longestSilence(r.at, r.ms), r.text).toBeLessThanOrEqual(1_600);
    expect(r.text).toContain("\r\x1b[2Ksafecut: 0/");
    // cleared before the report
    expect(r.text.endsWith("\r\x1b[2K")).toBe(true);
  }, 60_000);

  it("--quiet: nothing", async () => {
    const r = await run(false, { quiet: true });
    expect(r.text).toBe("");
  }, 60_000);
});
