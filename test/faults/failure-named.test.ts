// Every summarizer failure named, under the default strategy (clear-then-summarize): a loopback
// server per provider answers each failure as that provider does (its real error body, a hang, a
// dropped connection, an answer far over max_tokens), and the CLI's JSON report, its `calls`, the
// text report and the library's failure hook say what failed: provider, host, model, HTTP status,
// the provider's error code and message, attempts and waits, and what the user can do. The API
// key sent never appears in any of them.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunFailure } from "../../src/engine/run/run-hooks.ts";
import { compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { anthropicConversation, openAIConversation } from "../support/generate.ts";
import { type Imitation, startImitation } from "../support/http-imitation.ts";
import { type ErrorApi, type FailureKind, failureBehavior, TEST_KEY } from "../support/provider-errors.ts";

let server: Imitation | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MODEL = { openai: "gpt-4o-mini", anthropic: "claude-haiku-4-5" } as const;
const KEY_ENV = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" } as const;

/** What each failure must be reported as: the call's fields, and the one line the text report gives. */
interface Expected {
  readonly kind: string;
  readonly status?: number;
  readonly code?: string;
  readonly message?: RegExp;
  readonly attempts: number;
  readonly waitsMs: readonly number[];
  /** the text report's failure line, after "the summarizer at HOST (MODEL) " */
  readonly line: RegExp;
}

const EXPECTED: Record<ErrorApi, Record<FailureKind, Expected>> = {
  openai: {
    "401": {
      kind: "http",
      status: 401,
      code: "invalid_api_key",
      message: /^Incorrect API key provided/,
      attempts: 1,
      waitsMs: [],
      line: /answered 401 invalid_api_key after 1 attempt: check OPENAI_API_KEY/,
    },
    "404": {
      kind: "http",
      status: 404,
      code: "model_not_found",
      message: /does not exist or you do not have access to it/,
      attempts: 1,
      waitsMs: [],
      line: /answered 404 model_not_found after 1 attempt: check model \(--model\)/,
    },
    "429": {
      kind: "http",
      status: 429,
      code: "rate_limit_exceeded",
      message: /^Rate limit reached for gpt-4o-mini/,
      attempts: 2,
      waitsMs: [1000],
      line: /answered 429 rate_limit_exceeded after 2 attempts \(waited 1000 ms\): /,
    },
    "500": {
      kind: "http",
      status: 500,
      code: "server_error",
      message: /^The server had an error/,
      attempts: 2,
      waitsMs: [10],
      line: /answered 500 server_error after 2 attempts \(waited 10 ms\): /,
    },
    timeout: {
      kind: "timeout",
      attempts: 1,
      waitsMs: [],
      line: /timed out after 300 ms without answering, after 1 attempt: raise timeout_ms/,
    },
    reset: {
      kind: "network",
      attempts: 1,
      waitsMs: [],
      line: /could not be reached \(\w+\): request failed, network error, after 1 attempt: check base_url/,
    },
    oversized: {
      kind: "oversized-answer",
      attempts: 1,
      waitsMs: [],
      line: /answered more than .*, after 1 attempt: check that the server honours max_tokens/,
    },
  },
  anthropic: {
    "401": {
      kind: "http",
      status: 401,
      code: "authentication_error",
      message: /^invalid x-api-key$/,
      attempts: 1,
      waitsMs: [],
      line: /answered 401 authentication_error after 1 attempt: check ANTHROPIC_API_KEY/,
    },
    "404": {
      kind: "http",
      status: 404,
      code: "not_found_error",
      message: /^model: claude-haiku-4-5$/,
      attempts: 1,
      waitsMs: [],
      line: /answered 404 not_found_error after 1 attempt: check model \(--model\)/,
    },
    "429": {
      kind: "http",
      status: 429,
      code: "rate_limit_error",
      message: /exceed the rate limit/,
      attempts: 2,
      waitsMs: [1000],
      line: /answered 429 rate_limit_error after 2 attempts \(waited 1000 ms\): /,
    },
    "500": {
      kind: "http",
      status: 500,
      code: "api_error",
      message: /^Internal server error$/,
      attempts: 2,
      waitsMs: [10],
      line: /answered 500 api_error after 2 attempts \(waited 10 ms\): /,
    },
    timeout: {
      kind: "timeout",
      attempts: 1,
      waitsMs: [],
      line: /timed out after 300 ms without answering, after 1 attempt: raise timeout_ms/,
    },
    reset: {
      kind: "network",
      attempts: 1,
      waitsMs: [],
      line: /could not be reached \(\w+\): request failed, network error, after 1 attempt: check base_url/,
    },
    oversized: {
      kind: "oversized-answer",
      attempts: 1,
      waitsMs: [],
      line: /answered more than .*, after 1 attempt: check that the server honours max_tokens/,
    },
  },
};

/** A conversation whose tool results clearing takes under the trigger, leaving enough above the target to summarize. */
function conversationFile(api: ErrorApi, dir: string): string {
  const conv =
    api === "openai" ? openAIConversation({ turns: 30, seed: 3 }) : anthropicConversation({ turns: 30, seed: 3 });
  const file = join(dir, "conversation.json");
  writeFileSync(file, JSON.stringify(conv));
  return file;
}

describe.each(["openai", "anthropic"] as const)(
  "%s: a failed summarizer call is named under the default strategy",
  (api) => {
    it.each(["401", "404", "429", "500", "timeout", "reset", "oversized"] as const)("%s", async (kind) => {
      server = await startImitation(api, () => failureBehavior(api, kind));
      const dir = tempDir();
      conversationFile(api, dir);
      const attempts = kind === "429" || kind === "500" ? "2" : "1";
      const r = await runInProcess(
        [
          "compact",
          "conversation.json",
          "--provider",
          api,
          "--base-url",
          server.url,
          "--model",
          MODEL[api],
          "--token-threshold",
          "8000",
          "--max-attempts",
          attempts,
          "--retry-delay-ms",
          "10",
          "--timeout-ms",
          // short only where the time-out is the case: an 8 MB answer takes longer to arrive under load
          kind === "timeout" ? "300" : "5000",
          "--report",
          "report.json",
          "-o",
          "out.json",
        ],
        { cwd: dir, env: { [KEY_ENV[api]]: TEST_KEY } },
      );
      const text = readFileSync(join(dir, "report.json"), "utf8");
      const report = JSON.parse(text);
      const want = EXPECTED[api][kind];
      const host = new URL(server.url).host;
      expect(r.code).toBe(3);
      expect(report.outcome).toBe("degraded");
      // the default strategy cleared first: the reason says so, and then what failed
      expect(report.reason).toMatch(/^cleared \d+ tool results .*; then summarizing messages .* failed/);
      expect(report.failure).toMatchObject({
        kind: want.kind,
        provider: api,
        host,
        model: MODEL[api],
        attempts: want.attempts,
        waitsMs: want.waitsMs,
      });
      expect(report.failure.status).toBe(want.status);
      expect(report.failure.code).toBe(want.code);
      if (want.message !== undefined) expect(report.failure.message).toMatch(want.message);
      expect(report.failure.message.length).toBeLessThanOrEqual(300);
      // every call is listed with what failed it: the batch is cut into the calls that fit the
      // model's window and output cap (model catalogue), sent side by side, each failing after its attempts
      expect(report.calls.length).toBe(server.requests.length);
      expect(report.calls.length % want.attempts).toBe(0);
      for (const call of report.calls)
        expect(call.failure).toMatchObject({ kind: want.kind, provider: api, host, model: MODEL[api] });
      // the text report: one line naming what failed and what to do (stderr keeps it with --report)
      const line = r.stderr.split("\n").find((l) => l.includes("the summarizer at"));
      expect(line).toBeDefined();
      expect(line).toContain(`the summarizer at ${host} (${MODEL[api]}) `);
      expect(line).toMatch(want.line);
      // never the key
      expect(text).not.toContain(TEST_KEY);
      expect(r.stderr).not.toContain(TEST_KEY);
    });
  },
);

describe("the failure hook and secrets", () => {
  it("the library's failure hook gets the report with the failed call, the key in the provider's message masked", async () => {
    // a proxy that echoes the whole key in its message: the report shows it masked
    server = await startImitation("openai", () => ({
      kind: "raw",
      status: 401,
      body: JSON.stringify({
        error: { message: `invalid key ${TEST_KEY} for Bearer ${TEST_KEY}`, type: "auth", code: "invalid_api_key" },
      }),
    }));
    const failures: RunFailure[] = [];
    const input = openAIConversation({ turns: 30, seed: 3 });
    const out = await compactOpenAIMessages(
      input,
      {
        provider: "openai",
        base_url: server.url,
        model: "gpt-4o-mini",
        token_threshold: 8000,
        max_attempts: 1,
        timeout_ms: 2000,
      },
      { env: { OPENAI_API_KEY: TEST_KEY }, hooks: { failure: (f) => failures.push(f) } },
    );
    expect(out.report.outcome).toBe("degraded");
    expect(failures).toHaveLength(1);
    const f = failures[0];
    if (!("report" in f)) throw new Error("expected a degraded report");
    expect(f.report.failure).toMatchObject({ provider: "openai", status: 401, code: "invalid_api_key", attempts: 1 });
    expect(JSON.stringify(f.report)).not.toContain(TEST_KEY);
    expect(f.report.failure?.message).toBe("invalid key *** for Bearer ***");
  });

  it("a base URL with credentials: the host is named without them", async () => {
    server = await startImitation("openai", () => failureBehavior("openai", "500"));
    const u = new URL(server.url);
    const withCredentials = `http://user:hunter2secret@${u.host}${u.pathname}`;
    const out = await compactOpenAIMessages(
      openAIConversation({ turns: 30, seed: 3 }),
      { provider: "openai", base_url: withCredentials, model: "gpt-4o-mini", token_threshold: 8000, max_attempts: 1 },
      { env: {} },
    );
    expect(out.report.outcome).toBe("degraded");
    expect(out.report.failure?.host).toBe(u.host);
    expect(JSON.stringify(out.report)).not.toContain("hunter2secret");
  });
});
