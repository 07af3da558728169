// A session's compaction record names each failed call that preceded its summary (issue 30): a
// summarizer that answers OpenAI's real HTTP 500 body once and then well leaves a record whose
// first call carries the failure (provider, host, model, status, the provider's code and
// message), as written and as read back by a new process.
import { afterAll, describe, expect, it } from "vitest";
import { openSession } from "../../src/session/open.ts";
import type { Behavior, RecordedRequest } from "../support/http-imitation.ts";
import { failureBehavior } from "../support/provider-errors.ts";
import { backends, removeFresh } from "./backends.ts";
import { SMALL_CONFIG, turn } from "./conversation.ts";
import { answer, imitationPerTest } from "./imitation-answers.ts";

const imitation = imitationPerTest();
afterAll(removeFresh);

describe.each(backends)("a record's failed calls: $name", (backend) => {
  it("a 500 before the summary is named on the record's first call, and read back the same", async () => {
    const server = await imitation.start(
      (n: number, req: RecordedRequest): Behavior =>
        n === 0 ? failureBehavior("openai", "500") : { kind: "summary", text: answer(req) },
    );
    const at = backend.fresh();
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) await s.append(turn(`u${i}`));
    const config = {
      ...SMALL_CONFIG,
      provider: "openai" as const,
      base_url: server.url,
      model: "gpt-4o-mini",
      timeout_ms: 5_000,
      batch_tokens: 0,
      retry_delay_ms: 10,
    };
    const report = await s.compact(config, { env: {} });
    expect(report.stretches.length).toBeGreaterThan(0);
    const records = await s.compactions();
    const first = records[0].calls?.[0];
    expect(first).toMatchObject({
      answered: false,
      failure: {
        kind: "http",
        provider: "openai",
        host: new URL(server.url).host,
        model: "gpt-4o-mini",
        status: 500,
        code: "server_error",
        message: "The server had an error while processing your request. Sorry about that!",
      },
    });
    expect(records[0].calls?.[1]).toMatchObject({ answered: true });
    expect(records[0].calls?.[1]).not.toHaveProperty("failure");
    await s.close();
    const again = await openSession(at);
    expect(await again.compactions()).toEqual(records);
    await again.close();
  });
});
