// The one recogniser of context-overflow answers: each provider's real body (status, JSON, wording)
// is recognised with its provider and counts; other refusals (an output cap, a bad key, a rate
// limit) are not overflows; thrown SDK errors are read through their fields.
import Anthropic from "@anthropic-ai/sdk";
import { APICallError } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { overflowOfError, recognizeOverflow } from "../../src/model/context-overflow.ts";

const OPENAI_BODY = JSON.stringify({
  error: {
    message:
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length of the messages.",
    type: "invalid_request_error",
    param: "messages",
    code: "context_length_exceeded",
  },
});
const ANTHROPIC_BODY = JSON.stringify({
  type: "error",
  error: { type: "invalid_request_error", message: "prompt is too long: 209353 tokens > 199999 maximum" },
  request_id: "req_1",
});

describe("recognizeOverflow", () => {
  it("reads each provider's overflow answer with its counts", () => {
    expect(recognizeOverflow(400, OPENAI_BODY)).toMatchObject({
      provider: "openai",
      over: "tokens",
      promptTokens: 8227,
      contextWindow: 8192,
    });
    expect(recognizeOverflow(400, ANTHROPIC_BODY)).toMatchObject({
      provider: "anthropic",
      promptTokens: 209353,
      contextWindow: 199999,
    });
    const google = JSON.stringify({
      error: {
        code: 400,
        message: "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).",
        status: "INVALID_ARGUMENT",
      },
    });
    expect(recognizeOverflow(400, google)).toMatchObject({
      provider: "google",
      promptTokens: 1200293,
      contextWindow: 1048576,
    });
    const vllm = JSON.stringify({
      object: "error",
      message:
        "This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.",
      type: "BadRequestError",
      param: null,
      code: 400,
    });
    expect(recognizeOverflow(400, vllm)).toMatchObject({
      provider: "openai-compatible",
      promptTokens: 112946,
      contextWindow: 16384,
    });
    const llama = JSON.stringify({
      error: {
        code: 400,
        message: "the request exceeds the available context size, try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 14429,
        n_ctx: 8192,
      },
    });
    expect(recognizeOverflow(400, llama)).toMatchObject({
      provider: "openai-compatible",
      promptTokens: 14429,
      contextWindow: 8192,
    });
  });

  it("reads any 413 as over the request size, Anthropic's by its type", () => {
    const body = JSON.stringify({
      type: "error",
      error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
    });
    expect(recognizeOverflow(413, body)).toMatchObject({ provider: "anthropic", over: "bytes", status: 413 });
    expect(recognizeOverflow(413, "<html>413 Request Entity Too Large</html>")).toMatchObject({
      provider: "unknown",
      over: "bytes",
    });
  });

  it("is not fooled by other refusals", () => {
    const cap = JSON.stringify({
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-haiku-4-5",
      },
    });
    expect(recognizeOverflow(400, cap)).toBeUndefined();
    const key = JSON.stringify({
      error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
    });
    expect(recognizeOverflow(401, key)).toBeUndefined();
    expect(recognizeOverflow(429, JSON.stringify({ error: { message: "Rate limit reached" } }))).toBeUndefined();
  });
});

describe("overflowOfError", () => {
  it("reads the SDKs' thrown errors", () => {
    const ai = new APICallError({
      message: "Bad Request",
      url: "http://x",
      requestBodyValues: {},
      statusCode: 400,
      responseBody: OPENAI_BODY,
    });
    expect(overflowOfError(ai)).toMatchObject({ provider: "openai", promptTokens: 8227 });
    const oa = OpenAI.APIError.generate(400, JSON.parse(OPENAI_BODY) as object, undefined, new Headers());
    expect(overflowOfError(oa)).toMatchObject({ provider: "openai", contextWindow: 8192 });
    const an = Anthropic.APIError.generate(400, JSON.parse(ANTHROPIC_BODY) as object, undefined, new Headers());
    expect(overflowOfError(an)).toMatchObject({ provider: "anthropic", promptTokens: 209353 });
    expect(overflowOfError(new Error("socket hang up"))).toBeUndefined();
  });
});
