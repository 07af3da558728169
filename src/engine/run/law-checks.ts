// Runtime counterparts of the laws, checked on a finished one-shot compaction (before vs after).
// They re-check outcomes, they do not decide anything: a failure here means a bug, and the CLI
// refuses to write such a result.
import { isDeepStrictEqual } from "node:util";
import type { Config } from "../../model/config.ts";
import { type Message, summaryMessage } from "../../model/message.ts";
import { assertWellFormed } from "../boundary/wellformed.ts";
import { clearedArguments, clearedWith } from "./clearing.ts";
import { type ItemMap, itemMapOf } from "./item-map.ts";
import { countOf } from "./plural.ts";
import { InputPositions } from "./positions.ts";
import type { ClearedResult, LawCheck, ReplacedStretch } from "./report.ts";

function protectedOnes(ms: readonly Message[]): Message[] {
  return ms.filter((m) => m.role === "user" || m.role === "system");
}

function protectedCount(ms: readonly Message[]): number {
  let k = 0;
  for (let i = 0; i < ms.length; i++) if (ms[i].role === "user" || ms[i].role === "system") k++;
  return k;
}

function answeredCalls(ms: readonly Message[]): Set<string> {
  return new Set(ms.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
}

/**
 * The input with the recorded splices applied in order (each at positions of the conversation as
 * it stood after the ones before), or why a record does not fit. One forward pass: the result is
 * built left to right from a cursor over the input; a splice starting before the end of what is
 * built (a rolling summary that takes the previous one) first gives those messages back to the
 * cursor. The work is linear in messages + splices + messages given back (the replaced lengths,
 * for the engine's forward-only runs), where applying each splice to a copy was O(messages x splices).
 */
export function replaySplices(before: readonly Message[], stretches: readonly ReplacedStretch[]): Message[] | string {
  const out: Message[] = [];
  const givenBack: Message[] = []; // a stack: its top is the next message after `out`
  let next = 0; // the next message of `before` after `out` and `givenBack`
  const left = () => givenBack.length + before.length - next;
  const take = (): Message => givenBack.pop() ?? before[next++];
  for (let k = 0; k < stretches.length; k++) {
    const { start, end, summary } = stretches[k];
    const length = out.length + left();
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end > length) {
      return `splice ${k + 1} (${start}..${end}) does not fit a conversation of ${countOf(length, "message")}`;
    }
    while (out.length > start) givenBack.push(out.pop() as Message);
    while (out.length < start) out.push(take());
    for (let i = start; i < end; i++) take();
    out.push(summaryMessage(summary));
  }
  while (left() > 0) out.push(take());
  return out;
}

/** Whether `after` holds the very message objects of `before`, in the same order (compared by reference). */
function sameMessages(before: readonly Message[], after: readonly Message[]): boolean {
  if (before.length !== after.length) return false;
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) return false;
  return true;
}

/** What the caller of checkLaws knows of the input. */
export interface LawCheckInput {
  /**
   * The input passed assertWellFormed's checks (the store's load gives the same verdict). When
   * nothing was spliced and the result holds the input's own messages, L5 then holds by identity.
   */
  readonly wellFormed?: boolean;
  /** The caller's items of `before` (retention_window counts them); default: from the messages' sources. */
  readonly items?: ItemMap;
  /** The tool results the clearing tier cleared (at positions of `before`: it runs before any splice). */
  readonly cleared?: readonly ClearedResult[];
}

/** `before` with the recorded clearings applied, or why a record does not fit. */
function replayClearing(before: readonly Message[], cleared: readonly ClearedResult[]): Message[] | string {
  const out = before.slice();
  for (const r of cleared) {
    const m = out[r.index];
    if (m === undefined || m.role !== "tool" || m.toolCallId !== r.toolCallId)
      return `cleared result ${r.index} (${r.toolCallId}) is not a tool result of the input`;
    out[r.index] = clearedWith(m, r.placeholder);
    if (r.arguments === undefined) continue;
    const call = out[r.arguments.index];
    const next = call?.role === "assistant" ? clearedArguments(call, new Set([r.toolCallId])) : undefined;
    if (next === undefined) return `the call of cleared result ${r.index} (${r.toolCallId}) had no arguments to clear`;
    out[r.arguments.index] = next;
  }
  return out;
}

/**
 * Checks L1, L2, L3, L5, L6 and L8 on a result. The token totals are null when the run did not
 * count them (given a usage report and not due: nothing was spliced, so L8 holds by identity).
 */
export function checkLaws(
  before: readonly Message[],
  after: readonly Message[],
  stretches: readonly ReplacedStretch[],
  c: Config,
  tokens: { before: number | null; after: number | null; dueBefore: boolean },
  input: LawCheckInput = {},
): LawCheck[] {
  const out: LawCheck[] = [];
  const add = (law: string, title: string, ok: boolean, detail: string) => out.push({ law, title, ok, detail });
  // A run that spliced nothing (a dry run, nothing due, nothing eligible) returns the input's own
  // message objects: checked here by reference, then L2, L3 and L6 hold by identity, with the same
  // verdicts and details as the deep comparisons below, without re-reading every message.
  const cleared = input.cleared ?? [];
  const unchanged = stretches.length === 0 && cleared.length === 0 && sameMessages(before, after);
  const items = input.items ?? itemMapOf(before);

  add(
    "L1",
    "compacted only when due",
    (stretches.length === 0 && cleared.length === 0) || tokens.dueBefore,
    tokens.dueBefore ? "a trigger was reached before compaction" : "no trigger was reached",
  );

  if (unchanged) {
    const kept = protectedCount(before);
    add("L2", "user and system messages intact and in order", true, `${kept} of ${kept} kept unchanged`);
  } else {
    const pb = protectedOnes(before);
    const pa = protectedOnes(after);
    add(
      "L2",
      "user and system messages intact and in order",
      isDeepStrictEqual(pb, pa),
      `${pa.length} of ${pb.length} kept unchanged`,
    );
  }

  // the window counts the caller's items: w of them are these last `inner` messages
  const inner = Math.min(new InputPositions(items).window(before.length, c.retention_window), before.length);
  const tailSame =
    unchanged ||
    (after.length >= inner &&
      isDeepStrictEqual(before.slice(before.length - inner), after.slice(after.length - inner)));
  add(
    "L3",
    "retention window identical",
    tailSame,
    `last ${countOf(Math.min(c.retention_window, items.items), "message")}`,
  );

  let coherent = true;
  let detail = "every kept tool result has its call, every kept call keeps its results";
  // unchanged: no call lost its result (the same messages); and a well-formed input is a well-formed result
  if (!(unchanged && input.wellFormed === true)) {
    try {
      assertWellFormed(after);
      if (!unchanged) {
        const had = answeredCalls(before);
        const has = answeredCalls(after);
        for (const m of after) {
          if (m.role !== "assistant") continue;
          for (const call of m.toolCalls) {
            if (had.has(call.id) && !has.has(call.id)) {
              coherent = false;
              detail = `tool call "${call.id}" lost its result`;
            }
          }
        }
      }
    } catch (e) {
      coherent = false;
      detail = (e as Error).message;
    }
  }
  add("L5", "tool-call coherence (no orphan tool result)", coherent, detail);

  // no splice replays to the input itself, which `after` is
  const clearedBefore = cleared.length === 0 ? before : replayClearing(before, cleared);
  const replay = unchanged
    ? after
    : typeof clearedBefore === "string"
      ? clearedBefore
      : replaySplices(clearedBefore, stretches);
  add(
    "L6",
    cleared.length === 0
      ? "atomic splices: prefix ++ [summary] ++ suffix"
      : "atomic splices and clearings: only cleared contents (and arguments) and spliced stretches changed (L13)",
    typeof replay !== "string" && (unchanged || isDeepStrictEqual(replay, after)),
    typeof replay === "string" ? replay : `${countOf(stretches.length, "splice")} replayed`,
  );

  const { before: tb, after: ta } = tokens;
  const changed = stretches.length > 0 || cleared.length > 0;
  const reduced = !changed ? ta === tb : tb !== null && ta !== null && ta < tb;
  add(
    "L8",
    "tokens reduced by every compaction",
    reduced && stretches.every((s) => s.summaryTokens < s.replacedTokens),
    tb === null && ta === null ? "nothing replaced (totals not counted: reported usage)" : `${tb} -> ${ta} tokens`,
  );
  return out;
}
