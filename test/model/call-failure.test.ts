// The failed-call report's pure parts on real error bodies: each provider's code and message read
// out of its error JSON, secrets masked wherever they appear, messages cut, hosts without
// credentials, and the one line the text report prints.
import { describe, expect, it } from "vitest";
import {
  failureLine,
  hostOf,
  MESSAGE_CHARS,
  maskSecrets,
  providerError,
  reportedMessage,
  summarizerFailure,
} from "../../src/model/call-failure.ts";

describe("providerError reads each provider's error body", () => {
  it.each([
    [
      "OpenAI",
      '{"error":{"message":"Incorrect API key provided: sk-abc***xyz.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}',
      "invalid_api_key",
      "Incorrect API key provided: sk-abc***xyz.",
    ],
    [
      "OpenAI, code null: its type",
      '{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}',
      "server_error",
      "The server had an error while processing your request. Sorry about that!",
    ],
    [
      "Anthropic",
      '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_1"}',
      "authentication_error",
      "invalid x-api-key",
    ],
    [
      "Google",
      '{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}',
      "INVALID_ARGUMENT",
      "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    ],
    [
      "vLLM",
      '{"object":"error","message":"This model\'s maximum context length is 8192 tokens.","type":"BadRequestError","param":null,"code":400}',
      "BadRequestError",
      "This model's maximum context length is 8192 tokens.",
    ],
    [
      "Ollama",
      '{"error":"model \\"llama3\\" not found, try pulling it first"}',
      undefined,
      'model "llama3" not found, try pulling it first',
    ],
    [
      "a proxy's HTML page",
      "<html><body>502 Bad Gateway</body></html>",
      undefined,
      "<html><body>502 Bad Gateway</body></html>",
    ],
  ])("%s", (_name, body, code, message) => {
    expect(providerError(body)).toEqual(code === undefined ? { message } : { code, message });
  });
});

describe("secrets never reach a report", () => {
  it("masks the keys sent, anything shaped like a key, bearer tokens, key parameters and URL credentials", () => {
    const key = "sk-ant-api03-abcdefghijklmnop";
    expect(maskSecrets(`bad key ${key}`, [key])).toBe("bad key ***");
    expect(maskSecrets("bad key sk-proj-abcdefghijklmnopqrstuvwxyz")).toBe("bad key sk-proj-***");
    expect(maskSecrets("Authorization: Bearer abcdefghijklmnop")).toBe("Authorization: Bearer ***");
    expect(maskSecrets("GET https://x.googleapis.com/v1?key=AIzaSyABCDEFGHIJKLMNOPQRSTUVWX&alt=json")).toBe(
      "GET https://x.googleapis.com/v1?key=***&alt=json",
    );
    expect(maskSecrets("see http://user:hunter2@proxy.local:8080/v1")).toBe("see http://***@proxy.local:8080/v1");
  });

  it("cuts a long message to MESSAGE_CHARS, whitespace collapsed", () => {
    const m = reportedMessage(`a\n\n  b ${"x".repeat(1000)}`);
    expect(m.length).toBe(MESSAGE_CHARS);
    expect(m.startsWith("a b x")).toBe(true);
    expect(m.endsWith("...")).toBe(true);
  });

  it("a host never carries its credentials", () => {
    expect(hostOf("https://user:pw@api.openai.com/v1")).toBe("api.openai.com");
    expect(hostOf("http://127.0.0.1:8080/v1")).toBe("127.0.0.1:8080");
  });
});

describe("failureLine", () => {
  it("says what failed and what to do, in the issue's words", () => {
    const f = summarizerFailure(
      {
        kind: "http",
        provider: "openai",
        host: "api.openai.com",
        model: "gpt-4o-mini",
        status: 401,
        code: "invalid_api_key",
        message: "Incorrect API key provided",
      },
      1,
      [],
    );
    expect(failureLine(f)).toBe(
      "the summarizer at api.openai.com (gpt-4o-mini) answered 401 invalid_api_key after 1 attempt: check OPENAI_API_KEY",
    );
  });

  it("a custom summarizer's error: its name, its status, its message", () => {
    const f = summarizerFailure(
      { kind: "thrown", provider: "mine", model: "m", status: 503, message: "APIError: busy" },
      3,
      [10, 20],
    );
    expect(failureLine(f)).toBe(
      'the summarizer "mine" (m) threw 503: APIError: busy, after 3 attempts (waited 10 + 20 ms): the provider failed: retry later, or raise max_attempts',
    );
  });
});
