// `safecut session stats`: the prices flags read, and a session's totals (session-stats.ts) as
// text, one labelled line each, or as JSON with the cost beside them when prices are given.

import { Option } from "commander";
import { SafecutError } from "../model/errors.ts";
import type { CallStats, SessionStats, TokenPrices } from "../session/session-stats.ts";

/** The price flags, in US dollars per million tokens. */
export const PRICE_OPTIONS: readonly Option[] = [
  new Option("--price-input <usd>", "US dollars per million input tokens (with --price-output: the calls' cost)"),
  new Option("--price-output <usd>", "US dollars per million output tokens"),
  new Option(
    "--price-cache-read <usd>",
    "US dollars per million input tokens read from the cache (default: the input price)",
  ),
  new Option(
    "--price-cache-write <usd>",
    "US dollars per million input tokens written to the cache (default: the input price)",
  ),
];

/** The flags' values. */
export interface PriceFlags {
  readonly priceInput?: string;
  readonly priceOutput?: string;
  readonly priceCacheRead?: string;
  readonly priceCacheWrite?: string;
}

/** A price flag's value: a decimal number >= 0, else a usage error naming the flag. */
function price(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw new SafecutError("usage", `${flag} expects US dollars per million tokens, got ${v}`);
  return n;
}

/** The prices the flags give: none, or at least the input and output prices. */
export function pricesOf(f: PriceFlags): TokenPrices | undefined {
  const input = price("--price-input", f.priceInput);
  const output = price("--price-output", f.priceOutput);
  const cacheRead = price("--price-cache-read", f.priceCacheRead);
  const cacheWrite = price("--price-cache-write", f.priceCacheWrite);
  if (input === undefined && output === undefined && cacheRead === undefined && cacheWrite === undefined)
    return undefined;
  if (input === undefined || output === undefined)
    throw new SafecutError("usage", "a cost needs both --price-input and --price-output");
  return {
    input,
    output,
    ...(cacheRead === undefined ? {} : { cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWrite }),
  };
}

/** Dollars as text: cents exact, smaller amounts to four significant digits. */
function usd(x: number): string {
  return x >= 0.01 || x === 0 ? `$${x.toFixed(2)}` : `$${x.toPrecision(4)}`;
}

/** A call sum's usage and duration on one line. */
function callsLine(c: CallStats, cost: number | undefined): string {
  const u = c.usage;
  const parts = [
    `input ${u.inputTokens}`,
    `output ${u.outputTokens}`,
    `cache read ${u.cacheReadTokens}`,
    `cache write ${u.cacheWriteTokens}`,
    `${(c.durationMs / 1000).toFixed(1)} s`,
  ];
  if (c.failed > 0) parts.push(`${c.failed} failed`);
  if (c.withoutUsage > 0) parts.push(`${c.withoutUsage} without usage`);
  if (cost !== undefined) parts.push(usd(cost));
  return parts.join(", ");
}

/** The totals as text; `cost` of each model's calls and of all, when priced. */
export function statsText(
  s: SessionStats,
  cost?: { readonly usd: number; readonly byModel: readonly number[] },
): string {
  const rows: [string, string][] = [
    ["items", `${s.items} appended, ${s.context.items} in the context now`],
    ["context tokens", `${s.context.tokens} (${s.context.tokenizer})`],
    ["compactions", String(s.compactions)],
    ["clearings", `${s.clearings} (${s.restores} results restored)`],
    [
      "tokens saved",
      `${s.tokensSaved.total} (compactions ${s.tokensSaved.compactions}, clearings ${s.tokensSaved.clearings})`,
    ],
    ["summarizer calls", `${s.calls.count}: ${callsLine(s.calls, cost?.usd)}`],
  ];
  s.byModel.forEach((m, i) => {
    rows.push([
      `  ${m.summarizer}${m.model === undefined ? "" : ` ${m.model}`}`,
      `${m.count}: ${callsLine(m, cost?.byModel[i])}`,
    ]);
  });
  if (cost !== undefined) rows.push(["cost", usd(cost.usd)]);
  if (s.memoryCandidates > 0)
    rows.push([
      "memory candidates",
      `${s.memoryCandidates} stored with the compactions (safecut session show --memory)`,
    ]);
  if (s.recordsWithoutCalls > 0)
    rows.push(["not counted", `the calls of ${s.recordsWithoutCalls} compactions recorded before calls were`]);
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}\n`).join("");
}
