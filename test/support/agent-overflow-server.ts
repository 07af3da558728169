// A loopback server imitating the provider the AGENT calls (not the summarizer): OpenAI chat
// completions, an OpenAI-compatible server (vLLM's or llama.cpp's wording), Anthropic messages
// and Google's generateContent. It enforces a context window (counting the prompt's text, four
// characters a token, media data not counted, as providers count an image at a few hundred
// tokens whatever its bytes) and a request size in bytes, and refuses an over-long request with
// that provider's real overflow answer: its status, its JSON error body and wording, and the
// counts the wording gives. Under both limits it answers with a short text in the API's shape.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The API and wording the server answers with. */
export type AgentApi = "openai" | "vllm" | "llamacpp" | "anthropic" | "google";

/** What the server enforces. */
export interface AgentLimits {
  /** the model's window in the server's tokens (prompt text chars / 4) */
  readonly windowTokens: number;
  /** the largest request body in bytes (HTTP 413 above it); default: none */
  readonly maxBytes?: number;
}

/** One request the server received. */
export interface AgentRequest {
  readonly bytes: number;
  readonly promptTokens: number;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A running agent-provider imitation. */
export interface AgentServer {
  /** the base URL the SDKs take (…/v1 for OpenAI's, the root for Anthropic's and Google's) */
  readonly url: string;
  readonly requests: AgentRequest[];
  close(): Promise<void>;
}

/** The prompt's tokens as the server counts them: every string's characters / 4, media data (base64, data: URLs) left out. */
export function serverTokens(v: unknown): number {
  let chars = 0;
  const walk = (x: unknown, key: string): void => {
    if (typeof x === "string") {
      if (key === "data" || x.startsWith("data:")) return;
      chars += x.length;
    } else if (Array.isArray(x)) for (const y of x) walk(y, key);
    else if (typeof x === "object" && x !== null) for (const [k, y] of Object.entries(x)) walk(y, k);
  };
  walk(v, "");
  return Math.ceil(chars / 4);
}

/** The overflow answer of each API for a prompt of `m` tokens over a window of `n`. */
function overflowAnswer(api: AgentApi, m: number, n: number): { status: number; body: string } {
  switch (api) {
    case "openai":
      return {
        status: 400,
        body: JSON.stringify({
          error: {
            message: `This model's maximum context length is ${n} tokens. However, your messages resulted in ${m} tokens. Please reduce the length of the messages.`,
            type: "invalid_request_error",
            param: "messages",
            code: "context_length_exceeded",
          },
        }),
      };
    case "vllm":
      return {
        status: 400,
        body: JSON.stringify({
          object: "error",
          message: `This model's maximum context length is ${n} tokens. However, you requested ${m + 512} tokens (${m} in the messages, 512 in the completion). Please reduce the length of the messages or completion.`,
          type: "BadRequestError",
          param: null,
          code: 400,
        }),
      };
    case "llamacpp":
      return {
        status: 400,
        body: JSON.stringify({
          error: {
            code: 400,
            message: "the request exceeds the available context size, try increasing it",
            type: "exceed_context_size_error",
            n_prompt_tokens: m,
            n_ctx: n,
          },
        }),
      };
    case "anthropic":
      return {
        status: 400,
        body: JSON.stringify({
          type: "error",
          error: { type: "invalid_request_error", message: `prompt is too long: ${m} tokens > ${n} maximum` },
          request_id: "req_011CWAgPbMohjStFaYrkLZCm",
        }),
      };
    case "google":
      return {
        status: 400,
        body: JSON.stringify({
          error: {
            code: 400,
            message: `The input token count (${m}) exceeds the maximum number of tokens allowed (${n}).`,
            status: "INVALID_ARGUMENT",
          },
        }),
      };
  }
}

/** The 413 of each API: Anthropic's request_too_large body, a proxy's plain body elsewhere. */
function tooLarge(api: AgentApi): { status: number; body: string } {
  if (api === "anthropic")
    return {
      status: 413,
      body: JSON.stringify({
        type: "error",
        error: {
          type: "request_too_large",
          message:
            "Request exceeds the maximum allowed number of bytes. The maximum request size is 32 MB for standard API endpoints.",
        },
      }),
    };
  return { status: 413, body: "<html><body><h1>413 Request Entity Too Large</h1></body></html>" };
}

/** A short success answer in the API's shape. */
function success(api: AgentApi, promptTokens: number): string {
  const text = "Done: the build is green.";
  if (api === "anthropic")
    return JSON.stringify({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-haiku-4-5",
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: promptTokens, output_tokens: 8 },
    });
  if (api === "google")
    return JSON.stringify({
      candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: 8 },
    });
  return JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: 8, total_tokens: promptTokens + 8 },
  });
}

/** Starts the imitation of `api` enforcing `limits`. */
export async function startAgentServer(api: AgentApi, limits: AgentLimits): Promise<AgentServer> {
  const requests: AgentRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      } catch {}
      const prompt = api === "google" ? [body.systemInstruction, body.contents] : [body.system, body.messages];
      const promptTokens = serverTokens(prompt);
      let out: { status: number; body: string };
      if (limits.maxBytes !== undefined && raw.length > limits.maxBytes) out = tooLarge(api);
      else if (promptTokens > limits.windowTokens) out = overflowAnswer(api, promptTokens, limits.windowTokens);
      else out = { status: 200, body: success(api, promptTokens) };
      requests.push({ bytes: raw.length, promptTokens, status: out.status, body });
      res.writeHead(out.status, { "content-type": out.body.startsWith("<") ? "text/html" : "application/json" });
      res.end(out.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const root = `http://127.0.0.1:${port}`;
  return {
    url: api === "anthropic" || api === "google" ? root : `${root}/v1`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A tool result's text for the agents' histories: a build log of `chars` characters. */
export function buildLog(i: number, chars: number): string {
  return Array.from({ length: Math.ceil(chars / 40) }, (_, k) => `step ${i}.${k}: compiled module ${k} ok`)
    .join("\n")
    .slice(0, chars);
}

/** Servers a test file starts, closed after each test: `serve` starts one, `closeAll` closes them. */
export function serverPool(): {
  serve(api: AgentApi, windowTokens: number, maxBytes?: number): Promise<AgentServer>;
  closeAll(): Promise<void>;
} {
  const started: AgentServer[] = [];
  return {
    async serve(api, windowTokens, maxBytes) {
      const s = await startAgentServer(api, maxBytes === undefined ? { windowTokens } : { windowTokens, maxBytes });
      started.push(s);
      return s;
    },
    async closeAll() {
      for (const s of started.splice(0)) await s.close();
    },
  };
}
