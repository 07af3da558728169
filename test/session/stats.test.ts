// `safecut session stats` and Session.stats (issue 33): the totals a user asks for instead of raw
// records (tokens saved, compactions, clearings, the summarizer calls the records count, their
// duration, usage and, with prices, cost), text and --json, on both backends. The summarizer is
// the OpenAI one talking to the loopback imitation, whose answers carry usage as OpenAI reports it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callTotals } from "../../src/engine/run/run-hooks.ts";
import { openSession } from "../../src/session/open.ts";
import type { CompactionRecord } from "../../src/session/record.ts";
import type { SessionStats } from "../../src/session/session-stats.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import type { Behavior, RecordedRequest } from "../support/http-imitation.ts";
import { backends, removeFresh } from "./backends.ts";
import { SMALL_CONFIG, turn } from "./conversation.ts";
import { answer, imitationPerTest } from "./imitation-answers.ts";

const imitation = imitationPerTest();
afterAll(removeFresh);

const USAGE = { prompt_tokens: 1200, completion_tokens: 80, prompt_tokens_details: { cached_tokens: 1000 } };

describe.each(backends)("session stats: $name", (backend) => {
  it("sums what the records hold: steps, tokens saved, calls with their usage and cost; text and --json", async () => {
    const server = await imitation.start(
      (_n: number, req: RecordedRequest): Behavior => ({ kind: "summary", text: answer(req), usage: USAGE }),
    );
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`u${i}`));
    const config = {
      ...SMALL_CONFIG,
      provider: "openai",
      base_url: server.url,
      model: "gpt-4o-mini",
      timeout_ms: 5_000,
      batch_tokens: 0,
    } as const;
    // a clearing step, then summaries
    await s.compact({ ...SMALL_CONFIG, strategy: "clear", clear_at_least: 0 }, { env: {} });
    const report = await s.compact(config, { env: {} });
    expect(report.stretches.length).toBeGreaterThan(1);
    const records: CompactionRecord[] = await s.compactions();
    const clearings = await s.clearings();
    expect(clearings.length).toBeGreaterThan(0);
    const saved = records.reduce((n, r) => n + r.tokensBefore - r.tokensAfter, 0);
    const cleared = clearings.reduce((n, r) => n + ("tokensBefore" in r ? r.tokensBefore - r.tokensAfter : 0), 0);
    const totals = callTotals(records.flatMap((r) => r.calls ?? []));
    const n = server.requests.length;
    await s.close();

    const cwd = tempDir();
    const r = await runInProcess(["session", "stats", at, "--json", "--tokenizer", "chars"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const stats = JSON.parse(r.stdout) as SessionStats & { cost?: unknown };
    expect(stats.items).toBe(48);
    expect(stats.compactions).toBe(records.length);
    expect(stats.clearings).toBe(clearings.length);
    expect(stats.tokensSaved).toEqual({ compactions: saved, clearings: cleared, total: saved + cleared });
    expect(saved).toBeGreaterThan(0);
    expect(cleared).toBeGreaterThan(0);
    expect(stats.calls).toMatchObject({
      count: n,
      failed: 0,
      withoutUsage: 0,
      usage: { inputTokens: 1200 * n, outputTokens: 80 * n, cacheReadTokens: 1000 * n, cacheWriteTokens: 0 },
    });
    expect(stats.calls.durationMs).toBeCloseTo(totals.durationMs, 6);
    expect(stats.byModel).toEqual([expect.objectContaining({ summarizer: "openai", model: "gpt-4o-mini", count: n })]);
    expect(stats.context.tokenizer).toBe("chars");
    expect(stats.context.items).toBeLessThan(48);
    expect(stats.cost).toBeUndefined();

    // with prices: uncached input, cache reads and output each at its price (US dollars per million tokens)
    const priced = await runInProcess(
      ["session", "stats", at, "--json", "--price-input", "2", "--price-output", "8", "--price-cache-read", "0.5"],
      { cwd },
    );
    expect(priced.code, priced.stderr).toBe(0);
    const cost = (JSON.parse(priced.stdout) as { cost: { usd: number } }).cost.usd;
    expect(cost).toBeCloseTo((n * (200 * 2 + 1000 * 0.5 + 80 * 8)) / 1e6, 12);

    const text = await runInProcess(["session", "stats", at, "--price-input", "2", "--price-output", "8"], { cwd });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`compactions\\s+${records.length}\\b`));
    expect(text.stdout).toMatch(new RegExp(`tokens saved\\s+${saved + cleared}\\b`));
    expect(text.stdout).toMatch(new RegExp(`summarizer calls\\s+${n}\\b`));
    expect(text.stdout).toContain(`input ${1200 * n}`);
    expect(text.stdout).toMatch(/cost\s+\$0\.0\d+/);
  });

  it("a session with nothing compacted has zero totals; a missing one is refused with exit 1", async () => {
    const cwd = tempDir();
    const at = backend.fresh();
    writeFileSync(
      join(cwd, "conv.jsonl"),
      turn("a")
        .map((x) => `${JSON.stringify(x)}\n`)
        .join(""),
    );
    let r = await runInProcess(["session", "import", "conv.jsonl", "--to", at], { cwd });
    expect(r.code, r.stderr).toBe(0);
    r = await runInProcess(["session", "stats", at, "--json"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const stats = JSON.parse(r.stdout) as SessionStats;
    expect(stats).toMatchObject({ items: 4, compactions: 0, tokensSaved: { total: 0 }, calls: { count: 0 } });
    expect(stats.context.items).toBe(4);
    r = await runInProcess(["session", "stats", backend.fresh()], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no session at/);
  });
});
