// Tool-output truncation: keep the head or the tail of a text within a line budget and a byte
// budget, whichever hits first. The kernel decides how many whole lines fit (L11); this file
// only splits the text and measures UTF-8 bytes.
import { ConfigError } from "../../model/errors.ts";
import { gateKeepLines } from "../boundary/kernel-gate.ts";

/** Truncation limits. */
export interface TruncateOptions {
  readonly maxLines: number;
  readonly maxBytes: number;
  /** keep the first lines ("head", default) or the last ones ("tail") */
  readonly keep?: "head" | "tail";
}

/** A truncated text and what was cut. */
export interface Truncated {
  /** the kept lines joined by "\n": at most maxLines lines and maxBytes UTF-8 bytes */
  readonly text: string;
  readonly truncated: boolean;
  readonly keptLines: number;
  readonly omittedLines: number;
}

/** Keeps the head or tail of `text` within both budgets (whole lines only). */
export function truncateToolOutput(text: string, o: TruncateOptions): Truncated {
  // the kernel's requires: budgets are naturals
  if (!Number.isSafeInteger(o.maxLines) || o.maxLines < 0) throw new ConfigError("maxLines", "must be an integer >= 0");
  if (!Number.isSafeInteger(o.maxBytes) || o.maxBytes < 0) throw new ConfigError("maxBytes", "must be an integer >= 0");
  const lines = text.split("\n");
  const bytes = lines.map((l) => Buffer.byteLength(l, "utf8"));
  const tail = o.keep === "tail";
  const k = gateKeepLines(bytes, o.maxLines, o.maxBytes, tail ? "tail" : "head");
  const kept = tail ? lines.slice(lines.length - k) : lines.slice(0, k);
  return { text: kept.join("\n"), truncated: k < lines.length, keptLines: k, omittedLines: lines.length - k };
}
