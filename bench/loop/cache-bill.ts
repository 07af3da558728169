// What the main model's input costs with prompt caching, per request of an agent loop, for the two
// provider styles (bench:loop's dollar tables). Prices are multiples of the model's uncached input
// price per token. Messages stand for the provider's content blocks (a breakpoint's look-back and a
// cache entry's length are counted in messages); tokens by the character heuristic. The cache never
// expires within a replay (an agent loop calls the model every few seconds, well inside a 5-minute
// lifetime), and a changed message ends every entry that covered it.
//
// Anthropic style (explicit breakpoints): a request writes a cache entry for the prefix that ends at
// each of its breakpoints (when that prefix has at least MIN_CACHED tokens); it reads the longest
// entry written by an earlier request whose prefix it still has, ending at one of its breakpoints
// or at most LOOKBACK messages before one. It pays 0.1x for what it reads, 1.25x for what it
// writes (from the read to its last breakpoint) and 1x after its last breakpoint. The agent (as
// the common agents do) marks the system prompt and the context's last message; the adapters may
// add one (part 4 of issue 31: the last message before the first one compaction changed).
//
// OpenAI style (automatic prefix caching): a request of at least MIN_CACHED tokens reads, at 0.1x,
// the longest prefix it shares with the request before it, in whole blocks of BLOCK tokens (and
// at least MIN_CACHED); the rest at 1x; nothing is billed for writing.
//
// A cache bust is a request that changed a message the request before it had sent (what it
// re-writes: Anthropic, the tokens it writes at 1.25x; OpenAI, the tokens it pays in full).
import type { Message } from "../../src/model/message.ts";
import { charCounter, messageTokens } from "../../src/model/tokens.ts";

/** The provider styles the bench bills. */
export type CacheStyle = "anthropic" | "openai";

/** Price multiples of the uncached input price: cached read, cache write (Anthropic), output (per style). */
export const PRICE = {
  read: 0.1,
  write: 1.25,
  output: { anthropic: 5, openai: 4 },
} as const;
/** The least prefix a provider caches, in tokens. */
export const MIN_CACHED = 1024;
/** OpenAI's cache granularity past MIN_CACHED, in tokens. */
export const BLOCK = 128;
/** How many blocks (here messages) before a breakpoint Anthropic looks for an earlier entry. */
export const LOOKBACK = 20;

/** What one meter billed over a replay: in input-token equivalents (tokens x price multiple). */
export interface CacheTotals {
  bill: number;
  /** requests that changed what the request before them had sent */
  busts: number;
  /** tokens those requests re-wrote (Anthropic) or paid in full (OpenAI) */
  rewritten: number;
}

/** Whether two messages are the same (by identity, else by content). */
function same(a: Message, b: Message): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** One provider style's cache, fed every request of a replay in order. */
export class CacheMeter {
  readonly totals: CacheTotals = { bill: 0, busts: 0, rewritten: 0 };
  private previous: readonly Message[] = [];
  /** Anthropic: the message-prefix lengths with a live cache entry (each a prefix of the previous request) */
  private entries: number[] = [];
  private readonly tokenCache = new WeakMap<Message, number>();

  constructor(readonly style: CacheStyle) {}

  private tokensOf(m: Message): number {
    let t = this.tokenCache.get(m);
    if (t === undefined) {
      t = messageTokens(charCounter(), m);
      this.tokenCache.set(m, t);
    }
    return t;
  }

  /**
   * Bills one request of `context`; `extra` are the message indices the adapters marked with a
   * breakpoint (Anthropic style; the agent's own, the system prompt and the last message, are added here).
   */
  send(context: readonly Message[], extra: readonly number[] = []): void {
    const prefix: number[] = [0];
    for (const m of context) prefix.push(prefix[prefix.length - 1] + this.tokensOf(m));
    const total = prefix[context.length];
    let kept = 0;
    const prev = this.previous;
    while (kept < prev.length && kept < context.length && same(prev[kept], context[kept])) kept++;
    const bust = kept < prev.length;
    this.previous = context;
    if (this.style === "openai") {
      const shared = prefix[kept];
      const cached = total < MIN_CACHED || shared < MIN_CACHED ? 0 : Math.floor(shared / BLOCK) * BLOCK;
      this.totals.bill += PRICE.read * cached + (total - cached);
      if (bust) {
        this.totals.busts++;
        this.totals.rewritten += total - cached;
      }
      return;
    }
    // the agent's breakpoints (the system prompt, the last message) and the adapters'; at most four
    const head = context.length > 0 && context[0].role === "system" ? [1] : [];
    const marks = [...new Set([...head, ...extra.map((i) => i + 1), context.length])]
      .filter((n) => n > 0 && n <= context.length)
      .sort((a, b) => a - b);
    if (marks.length > 4) throw new Error(`${marks.length} cache breakpoints: a provider allows four`);
    this.entries = this.entries.filter((n) => n <= kept);
    let read = 0;
    for (const n of this.entries) if (n > read && marks.some((b) => b >= n && b - n <= LOOKBACK)) read = n;
    const cacheable = marks.filter((b) => prefix[b] >= MIN_CACHED);
    const last = cacheable.length === 0 ? 0 : cacheable[cacheable.length - 1];
    const written = last > read ? prefix[last] - prefix[read] : 0;
    this.totals.bill += PRICE.read * prefix[read] + PRICE.write * written + (total - prefix[Math.max(read, last)]);
    if (bust) {
      this.totals.busts++;
      this.totals.rewritten += written;
    }
    for (const b of cacheable) if (!this.entries.includes(b)) this.entries.push(b);
  }
}

/** The first index where `after` differs from `before` (the length of the shorter when one is a prefix of the other). */
export function firstChange(before: readonly Message[], after: readonly Message[]): number {
  let i = 0;
  while (i < before.length && i < after.length && same(before[i], after[i])) i++;
  return i;
}

/** A replay's main-model input billed with prompt caching, per provider style: input-token equivalents, cache busts, tokens re-written on them. */
export interface CacheBills {
  readonly anthropicBill: number;
  readonly anthropicBusts: number;
  readonly anthropicRewritten: number;
  readonly openaiBill: number;
  readonly openaiBusts: number;
  readonly openaiRewritten: number;
}

/** The meters' totals as a replay's bills (meters that billed nothing: all zero). */
export function billed(anthropic?: CacheMeter, openai?: CacheMeter): CacheBills {
  return {
    anthropicBill: anthropic?.totals.bill ?? 0,
    anthropicBusts: anthropic?.totals.busts ?? 0,
    anthropicRewritten: anthropic?.totals.rewritten ?? 0,
    openaiBill: openai?.totals.bill ?? 0,
    openaiBusts: openai?.totals.busts ?? 0,
    openaiRewritten: openai?.totals.rewritten ?? 0,
  };
}
