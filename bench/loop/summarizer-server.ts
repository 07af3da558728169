// A summarizer served on 127.0.0.1 for the agent-loop replay: it speaks the OpenAI chat
// completions API, so the library's real provider code (src/providers) sends every request, and
// it answers after a modelled latency (1 s + 0.1 s per 1k input tokens + 0.02 s per output token),
// divided by a scale so the bench's wall time stays short; the records keep the modelled seconds.
// The answer's length follows a simple model of an LLM summary: a fixed part plus a share of the
// excerpt and of the earlier summary it folds in, at most the budget the prompt states (or
// max_tokens), holding the facts the prompt lists verbatim, filled with the excerpt's own words; a
// batch prompt (several excerpts, the shared instructions stated once before them with the
// built-in prompt) is answered with one summary per excerpt, each within the budget, with the
// facts and in the tag its own part states. Each record keeps the call's wall-clock start and end, so the replay can tell which
// calls the library really had in flight together.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** Seconds a call waits for: a fixed part, a part per 1k input tokens, a part per output token. */
export const LATENCY = { baseS: 1, perKInputS: 0.1, perOutputS: 0.02 } as const;
/** A summary's modelled length: SUMMARY_BASE tokens plus SUMMARY_RATE of the tokens summarized (excerpt and earlier summary), at most the budget. */
export const SUMMARY_BASE = 40;
export const SUMMARY_RATE = 0.1;

/** One request the server answered: its prompt and answer sizes (chars / 4), its modelled latency, and when it ran (performance.now() ms). */
export interface CallRecord {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly seconds: number;
  readonly startMs: number;
  readonly endMs: number;
}

/** The running server: its base URL (for the provider's base_url) and every call so far. */
export interface SummarizerServer {
  readonly baseUrl: string;
  readonly calls: CallRecord[];
  close(): Promise<void>;
}

/** The modelled latency of one call, in seconds. */
export function modelledSeconds(inputTokens: number, outputTokens: number): number {
  return LATENCY.baseS + (LATENCY.perKInputS * inputTokens) / 1000 + LATENCY.perOutputS * outputTokens;
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** The part of a prompt between two markers (empty when either is missing). */
function between(text: string, open: string, close: string): string {
  const a = text.indexOf(open);
  if (a < 0) return "";
  const b = text.indexOf(close, a + open.length);
  return text.slice(a + open.length, b < 0 ? undefined : b);
}

/** The summary an LLM following the default prompt might write, by the length model above (`rate`: the share of the excerpt it keeps). */
export function modelSummary(prompt: string, maxTokens: number, rate = SUMMARY_RATE): string {
  const conversation = between(prompt, "Conversation excerpt:\n", "\n\nAnswer with the summary only");
  const previous = between(prompt, "<previous_summary>\n", "\n</previous_summary>");
  const excerpt = previous === "" ? conversation : `${previous}\n${conversation}`;
  const facts = between(prompt, "These facts must appear verbatim in the summary:\n", "\n\nConversation excerpt:")
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
  const chars = 4 * Math.min(maxTokens, SUMMARY_BASE + Math.round(rate * tokensOf(excerpt)));
  const words = excerpt.split(/\s+/).filter((w) => w !== "" && !w.startsWith("["));
  const parts = [...facts];
  let length = parts.join(" ").length;
  for (let i = 0; length < chars && words.length > 0; i++) {
    const w = words[i % words.length];
    parts.push(w);
    length += w.length + 1;
  }
  return parts.join(" ").slice(0, Math.max(chars, 1));
}

/** The summary of one prompt inside the tag it asks for. */
function taggedSummary(prompt: string, maxTokens: number, rate: number): string {
  const tag = /inside <([\w-]+)><\/\1>/.exec(prompt)?.[1] ?? "summary";
  return `<${tag}>${modelSummary(prompt, maxTokens, rate)}</${tag}>`;
}

/** The budget a prompt states ("Use at most N tokens"), or `otherwise` when it states none. */
function statedBudget(prompt: string, otherwise: number): number {
  return Number(/Use at most (\d+) tokens/.exec(prompt)?.[1] ?? otherwise);
}

/**
 * The answer to a prompt: one tagged summary within the budget it states (and max_tokens), or for
 * a batch prompt (excerpts under the headings renderBatchPrompt writes, after the instructions
 * they share) one per excerpt, read from its own part as an LLM would: the budget the part states
 * (or max_tokens over the number of excerpts), its facts, its excerpt and earlier summary, its tag.
 */
export function modelAnswer(prompt: string, maxTokens: number, rate = SUMMARY_RATE): string {
  const parts = prompt.split(/^=== excerpt \d+ of \d+ ===$/m).slice(1);
  if (parts.length === 0) return taggedSummary(prompt, Math.min(maxTokens, statedBudget(prompt, maxTokens)), rate);
  const each = Math.max(1, Math.floor(maxTokens / parts.length));
  // each excerpt within the budget its own part states (an aged summary's is tighter)
  return parts.map((p) => taggedSummary(p, Math.min(maxTokens, statedBudget(p, each)), rate)).join("\n");
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Starts the server on 127.0.0.1 (a free port). `scale` divides every modelled latency for the
 * wall-clock wait (1000: a modelled second is a millisecond); `rate` the share of an excerpt a
 * summary keeps beside SUMMARY_BASE (SUMMARY_RATE unless a bench varies it).
 */
export async function startSummarizerServer(scale: number, rate = SUMMARY_RATE): Promise<SummarizerServer> {
  const calls: CallRecord[] = [];
  const server = createServer(async (req, res) => {
    const startMs = performance.now();
    const body = JSON.parse(await bodyOf(req)) as { max_tokens: number; messages: { content: string }[] };
    const prompt = body.messages.map((m) => m.content).join("\n");
    const content = modelAnswer(prompt, body.max_tokens, rate);
    const inputTokens = tokensOf(prompt);
    const outputTokens = tokensOf(content);
    const seconds = modelledSeconds(inputTokens, outputTokens);
    await new Promise((r) => setTimeout(r, (seconds * 1000) / scale));
    calls.push({ inputTokens, outputTokens, seconds, startMs, endMs: performance.now() });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        choices: [{ message: { role: "assistant", content } }],
        usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
