// Loopback servers that enforce a model's limits as its provider does: the context window (prompt
// and answer together) and the output cap (the most max_tokens a request may ask), each refused
// with the provider's own HTTP 400 body (provider-errors.ts). Three models: gpt-4o-mini behind
// OpenAI's chat completions (window 128,000, output cap 16,384), claude-haiku-4-5 behind
// Anthropic's messages API (window 200,000, output cap 64,000), and llama3 with an 8k context behind
// llama.cpp's OpenAI-compatible server (no output cap of its own: it refuses a prompt over its
// context and stops an answer where the context ends). Tokens are counted with the project's
// tokenizer (o200k BPE) plus the message framing the server adds; an accepted request is answered
// with one summary per excerpt (summary-answers.ts), cut at max_tokens as a model stops there.
import { bpeCounter } from "../../src/model/tokens.ts";
import { type Behavior, type Imitation, type RecordedRequest, startImitation } from "./http-imitation.ts";
import { anthropicLimitError, type LimitRefusal, llamaCppContextError, openAILimitError } from "./provider-errors.ts";
import { answer } from "./summary-answers.ts";

/** A model as its server enforces it. */
export interface ModelLimits {
  /** the API the server speaks */
  readonly api: "openai" | "anthropic";
  /** whose error bodies it answers with */
  readonly server: "openai" | "anthropic" | "llama.cpp";
  /** the model's name as a client asks for it */
  readonly model: string;
  /** the dated id Anthropic's errors name */
  readonly modelId: string;
  /** the context window: prompt and answer together */
  readonly window: number;
  /** the most output tokens a request may ask (null: none of its own, the window bounds it) */
  readonly outputCap: number | null;
  /** tokens the server adds to a request's text for its message framing */
  readonly framing: number;
}

/** gpt-4o-mini on OpenAI: a 128,000-token window, at most 16,384 completion tokens. */
export const GPT_4O_MINI: ModelLimits = {
  api: "openai",
  server: "openai",
  model: "gpt-4o-mini",
  modelId: "gpt-4o-mini-2024-07-18",
  window: 128_000,
  outputCap: 16_384,
  // 3 per message, 1 for the role, 3 priming the reply
  framing: 7,
};

/** claude-haiku-4-5 on Anthropic: a 200,000-token window, at most 64,000 output tokens. */
export const CLAUDE_HAIKU_4_5: ModelLimits = {
  api: "anthropic",
  server: "anthropic",
  model: "claude-haiku-4-5",
  modelId: "claude-haiku-4-5-20251001",
  window: 200_000,
  outputCap: 64_000,
  framing: 7,
};

/** llama3 served by llama.cpp with an 8k context (`-c 8192`): no output cap but the context. */
export const LLAMA3_8K: ModelLimits = {
  api: "openai",
  server: "llama.cpp",
  model: "llama3",
  modelId: "llama3",
  window: 8192,
  outputCap: null,
  // the chat template's header and end-of-turn tokens
  framing: 10,
};

/** What the server made of one request: its counted input, the output it asked, and the answer's status. */
export interface Seen {
  readonly inputTokens: number;
  readonly maxTokens: number;
  readonly status: number;
  /** the error message the server refused it with */
  readonly refusal?: string;
}

/** A running model server: the imitation (its URL and recorded requests) and what it saw of each request. */
export interface ModelServer extends Imitation {
  readonly limits: ModelLimits;
  readonly seen: Seen[];
}

const counter = bpeCounter();

/** The tokens of a request's messages as the server counts them: their text plus the framing. */
export function inputTokensOf(req: RecordedRequest, limits: ModelLimits): number {
  const msgs = (req.body.messages as { content: unknown }[] | undefined) ?? [];
  const system = typeof req.body.system === "string" ? counter.count(req.body.system) : 0;
  const text = msgs.reduce((t, m) => t + (typeof m.content === "string" ? counter.count(m.content) : 0), 0);
  return system + text + limits.framing;
}

/** The field a request asks its output tokens in, and how many. */
function askedOf(req: RecordedRequest): { readonly param: string; readonly asked: number } {
  const b = req.body;
  if (typeof b.max_completion_tokens === "number")
    return { param: "max_completion_tokens", asked: b.max_completion_tokens };
  return { param: "max_tokens", asked: typeof b.max_tokens === "number" ? b.max_tokens : 0 };
}

/** Why the model's server refuses a request of `input` tokens asking `asked`, or undefined when it accepts it. */
function refusalOf(limits: ModelLimits, input: number, asked: number, param: string): LimitRefusal | undefined {
  if (limits.outputCap !== null && asked > limits.outputCap)
    return { kind: "output-cap", asked, cap: limits.outputCap, param };
  if (input > limits.window) return { kind: "prompt-too-long", input, window: limits.window };
  // llama.cpp takes any max_tokens and stops the answer where its context ends
  if (limits.server !== "llama.cpp" && input + asked > limits.window)
    return { kind: "prompt-and-answer", input, asked, window: limits.window };
  return undefined;
}

/** The provider's 400 for a refusal. */
function refusalBehavior(limits: ModelLimits, r: LimitRefusal): Behavior {
  if (limits.server === "anthropic") return anthropicLimitError(r, limits.modelId);
  // llama.cpp has no output cap: its one refusal is a prompt over its context
  if (limits.server === "llama.cpp" && r.kind !== "output-cap") return llamaCppContextError(r.input, limits.window);
  return openAILimitError(r);
}

/** The longest head of `text` within `tokens` tokens (a model stops its answer there). */
function cutToTokens(text: string, tokens: number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (counter.count(text.slice(0, mid)) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo);
}

/**
 * Starts a server for `limits`: a request over the output cap or the window is refused with the
 * provider's 400; any other is answered (`say` as in summary-answers.ts' answer), its answer cut
 * at the output the request may take (max_tokens, and for llama.cpp what is left of the context).
 */
export async function startModelServer(
  limits: ModelLimits,
  say?: (part: string, k: number) => string | undefined,
): Promise<ModelServer> {
  const seen: Seen[] = [];
  const imitation = await startImitation(limits.api, (_n, req) => {
    const input = inputTokensOf(req, limits);
    const { param, asked } = askedOf(req);
    const refusal = refusalOf(limits, input, asked, param);
    if (refusal !== undefined) {
      const b = refusalBehavior(limits, refusal);
      seen.push({ inputTokens: input, maxTokens: asked, status: 400, refusal: b.kind === "raw" ? b.body : "" });
      return b;
    }
    seen.push({ inputTokens: input, maxTokens: asked, status: 200 });
    const room = limits.server === "llama.cpp" ? Math.min(asked, limits.window - input) : asked;
    const full = answer(req, say);
    const tokens = counter.count(full);
    const text = tokens <= room ? full : cutToTokens(full, room);
    const out = Math.min(tokens, room);
    const usage =
      limits.api === "openai"
        ? { prompt_tokens: input, completion_tokens: out, total_tokens: input + out }
        : { input_tokens: input, output_tokens: out };
    return { kind: "summary", text, usage, cut: tokens > room };
  });
  return { ...imitation, limits, seen };
}

/** The CLI flags that set a model's limits as summarizer_window and summarizer_output_cap. */
export function limitFlags(l: ModelLimits): string[] {
  const cap = l.outputCap === null ? [] : ["--summarizer-output-cap", String(l.outputCap)];
  return ["--summarizer-window", String(l.window), ...cap];
}
