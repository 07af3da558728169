// Generated agent conversations for the benchmarks: deterministic (seeded), with the shape of a
// real coding-agent history: a system prompt, user turns, runs of assistant steps of which about
// 40% call 1-3 tools, each call answered right after, and message sizes skewed from a few tokens
// to a few thousand (most small, some tool outputs huge).
import type { AssistantMessage, Message, ToolCall } from "../src/model/message.ts";

/** A small seeded PRNG (mulberry32): the same seed gives the same conversation on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// One shared pool of text that every message content is a slice of: a million messages of a few
// thousand characters each would otherwise need gigabytes, while V8 keeps slices as references.
const WORDS = [
  "the",
  "function",
  "returns",
  "a",
  "value",
  "when",
  "called",
  "with",
  "src/engine/plan.ts",
  "error",
  "TypeError:",
  "cannot",
  "read",
  "property",
  "of",
  "undefined",
  "at",
  "line",
  "42",
  "const",
  "let",
  "await",
  "fetchUser",
  "user_id",
  "test",
  "passed",
  "failed",
  "expected",
  "received",
  "{",
  "}",
  "(",
  ")",
  "=>",
  "import",
  "from",
  "./store.ts",
  "npm",
  "run",
  "build",
  "warning",
  "deprecated",
  "node_modules/zod/index.js",
  "ok",
  "diff",
  "--git",
  "a/README.md",
  "+",
  "-",
];
const POOL_CHARS = 64 * 1024;
const MAX_CHARS = 12_000;
const POOL: string = (() => {
  const r = rng(7);
  const parts: string[] = [];
  let len = 0;
  while (len < POOL_CHARS + MAX_CHARS) {
    const w = WORDS[Math.floor(r() * WORDS.length)];
    const sep = r() < 0.08 ? "\n" : " ";
    parts.push(w, sep);
    len += w.length + 1;
  }
  return parts.join("");
})();

/** A text of about `tokens` tokens (4 characters per token), sliced from the shared pool. */
function text(r: () => number, tokens: number): string {
  const chars = Math.min(MAX_CHARS, Math.max(1, Math.round(tokens * 4)));
  const at = Math.floor(r() * POOL_CHARS);
  return POOL.slice(at, at + chars);
}

/** Log-uniform between lo and hi: most values small, a long tail of large ones. */
function skewed(r: () => number, lo: number, hi: number): number {
  return Math.round(Math.exp(Math.log(lo) + r() * (Math.log(hi) - Math.log(lo))));
}

/** Shape parameters of a generated conversation. */
export interface ShapeOptions {
  /** share of assistant messages carrying tool calls (default 0.4) */
  readonly toolCallShare?: number;
  readonly seed?: number;
}

/**
 * Exactly `n` messages: a system prompt, then user turns, each followed by 1-8 assistant steps;
 * a step calls 1-3 tools with probability toolCallShare, and every call is answered by a tool
 * result right after it (the last call may be left ongoing when `n` cuts a step short).
 */
export function generateConversation(n: number, o: ShapeOptions = {}): Message[] {
  const r = rng(o.seed ?? 1);
  // The closing step of a turn never calls a tool; scale the per-step odds so that the share over
  // all assistant messages is toolCallShare (non-closing steps are 28/36 of them for 1-8 steps).
  const share = Math.min(1, (o.toolCallShare ?? 0.4) * (36 / 28));
  const out: Message[] = [];
  let callNo = 0;
  if (n > 0) out.push({ role: "system", content: text(r, skewed(r, 50, 1500)) });
  while (out.length < n) {
    out.push({ role: "user", content: text(r, skewed(r, 3, 400)) });
    const steps = 1 + Math.floor(r() * 8);
    for (let s = 0; s < steps && out.length < n; s++) {
      const last = s === steps - 1;
      const k = !last && r() < share ? 1 + Math.floor(r() * 3) : 0;
      const calls: ToolCall[] = [];
      for (let c = 0; c < k; c++) {
        calls.push({
          id: `call_${callNo++}`,
          name: ["read_file", "bash", "grep", "edit_file"][Math.floor(r() * 4)],
          arguments: `{"path":"src/f${callNo % 97}.ts"}`,
        });
      }
      const a: AssistantMessage = {
        role: "assistant",
        content: k > 0 && r() < 0.5 ? "" : text(r, skewed(r, 5, 600)),
        toolCalls: calls,
      };
      out.push(a);
      for (const c of calls) {
        if (out.length >= n) break;
        out.push({ role: "tool", toolCallId: c.id, content: text(r, skewed(r, 3, 3000)) });
      }
    }
  }
  return out.slice(0, n);
}

/**
 * `count` messages to append one by one after a history: assistant steps with one tool call and
 * its result, and plain assistant replies; ids carry `prefix` so they never clash with the history.
 */
export function appendStream(count: number, prefix: string, seed = 3): Message[] {
  const r = rng(seed);
  const out: Message[] = [];
  let k = 0;
  while (out.length < count) {
    if (r() < 0.4 && out.length + 2 <= count) {
      const id = `${prefix}_${k++}`;
      out.push({ role: "assistant", content: "", toolCalls: [{ id, name: "bash", arguments: `{"cmd":"ls ${k}"}` }] });
      out.push({ role: "tool", toolCallId: id, content: text(r, skewed(r, 3, 3000)) });
    } else {
      out.push({ role: "assistant", content: text(r, skewed(r, 5, 600)), toolCalls: [] });
    }
  }
  return out;
}

/** Adversarial: n - 1 earlier summaries in a row, then one user message (nothing is eligible). */
export function summariesRun(n: number): Message[] {
  return Array.from(
    { length: n },
    (_, i): Message =>
      i === n - 1 ? { role: "user", content: "next?" } : { role: "summary", content: `summary ${i}` },
  );
}

/**
 * Adversarial: parallel tool calls whose results all come after a user message (well-formed:
 * every result follows its call), then a short tail.
 */
export function callsAnsweredAfterUser(n: number): Message[] {
  const k = Math.floor((n - 10) / 2);
  const calls = Array.from(
    { length: k },
    (_, i): Message => ({ role: "assistant", content: "", toolCalls: [{ id: `x${i}`, name: "f", arguments: "{}" }] }),
  );
  const results = Array.from({ length: k }, (_, i): Message => ({ role: "tool", toolCallId: `x${i}`, content: "r" }));
  const tail = Array.from(
    { length: n - 1 - 2 * k },
    (_, i): Message =>
      i % 2 === 1 ? { role: "user", content: "t" } : { role: "assistant", content: "t", toolCalls: [] },
  );
  return [...calls, { role: "user", content: "wait" }, ...results, ...tail];
}
