// Runtime counterparts of the laws, checked on a finished one-shot compaction (before vs after).
// They re-check outcomes, they do not decide anything: a failure here means a bug, and the CLI
// refuses to write such a result.
import { isDeepStrictEqual } from "node:util";
import type { Config } from "../../model/config.ts";
import { type Message, summaryMessage } from "../../model/message.ts";
import { assertWellFormed } from "../boundary/wellformed.ts";
import { type Pin, parsePins, pinsOfMessages, pinText } from "../store/pins.ts";
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
    const { start, end, summary, marker } = stretches[k];
    const length = out.length + left();
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end > length) {
      return `splice ${k + 1} (${start}..${end}) does not fit a conversation of ${countOf(length, "message")}`;
    }
    while (out.length > start) givenBack.push(out.pop() as Message);
    while (out.length < start) out.push(take());
    for (let i = start; i < end; i++) take();
    out.push(summaryMessage(summary, marker));
  }
  while (left() > 0) out.push(take());
  return out;
}

/** Whether `after` holds the very message objects of `before`, in the same order (compared by reference). */
function sameMessages(before: readonly Message[], after: readonly Message[]): boolean {
  // one list (a run that was not due compares its result with itself): O(1)
  if (before === after) return true;
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

/** What every law check compares: the input, the result, what the run recorded, and whether nothing changed. */
interface Compared {
  readonly before: readonly Message[];
  readonly after: readonly Message[];
  readonly stretches: readonly ReplacedStretch[];
  readonly cleared: readonly ClearedResult[];
  /**
   * A run that spliced nothing (a dry run, nothing due, nothing eligible) returns the input's own
   * message objects: checked by reference, then L2, L3 and L6 hold by identity, with the same
   * verdicts and details as the deep comparisons, without re-reading every message.
   */
  readonly unchanged: boolean;
}

/** L1: the run changed the conversation only when a trigger was reached before it. */
function compactedOnlyWhenDue(r: Compared, dueBefore: boolean): LawCheck {
  return {
    law: "L1",
    title: "compacted only when due",
    ok: (r.stretches.length === 0 && r.cleared.length === 0) || dueBefore,
    detail: dueBefore ? "a trigger was reached before compaction" : "no trigger was reached",
  };
}

/** L2's verdict: `kept` of the input's `of` user and system messages are the result's, equal and in order. */
function protectedVerdict(ok: boolean, kept: number, of: number): LawCheck {
  return {
    law: "L2",
    title: "user and system messages intact and in order",
    ok,
    detail: `${kept} of ${of} kept unchanged`,
  };
}

/** L2: the user and system messages of the input are those of the result, equal and in order. */
function protectedMessagesKept(r: Compared): LawCheck {
  if (r.unchanged) {
    const kept = protectedCount(r.before);
    return protectedVerdict(true, kept, kept);
  }
  const pb = protectedOnes(r.before);
  const pa = protectedOnes(r.after);
  return protectedVerdict(isDeepStrictEqual(pb, pa), pa.length, pb.length);
}

/** L3's verdict on a window of `items` items (the retention window, or all of them when fewer). */
function windowVerdict(ok: boolean, c: Config, items: number): LawCheck {
  return {
    law: "L3",
    title: "retention window identical",
    ok,
    detail: `last ${countOf(Math.min(c.retention_window, items), "message")}`,
  };
}

/** L3: the last `retention_window` items (the caller's, through `items`) end the result unchanged. */
function retentionWindowKept(r: Compared, c: Config, items: ItemMap): LawCheck {
  const { before, after } = r;
  // the window counts the caller's items: w of them are these last `inner` messages
  const inner = Math.min(new InputPositions(items).window(before.length, c.retention_window), before.length);
  const tailSame =
    r.unchanged ||
    (after.length >= inner &&
      isDeepStrictEqual(before.slice(before.length - inner), after.slice(after.length - inner)));
  return windowVerdict(tailSame, c, items.items);
}

/** The last tool call of `after` whose result `before` held and `after` lost, if any. */
function callThatLostItsResult(before: readonly Message[], after: readonly Message[]): string | undefined {
  const had = answeredCalls(before);
  const has = answeredCalls(after);
  let lost: string | undefined;
  for (const m of after) {
    if (m.role !== "assistant") continue;
    for (const call of m.toolCalls) if (had.has(call.id) && !has.has(call.id)) lost = call.id;
  }
  return lost;
}

/**
 * L5: the result is well-formed (every kept tool result has its call) and no call kept lost its
 * result. An unchanged result of a well-formed input holds by identity.
 */
function toolCallsCoherent(r: Compared, inputWellFormed: boolean): LawCheck {
  const check = (ok: boolean, detail: string): LawCheck => ({
    law: "L5",
    title: "tool-call coherence (no orphan tool result)",
    ok,
    detail,
  });
  const coherent = check(true, "every kept tool result has its call, every kept call keeps its results");
  // unchanged: no call lost its result (the same messages); and a well-formed input is a well-formed result
  if (r.unchanged && inputWellFormed) return coherent;
  try {
    assertWellFormed(r.after);
  } catch (e) {
    return check(false, (e as Error).message);
  }
  const lost = r.unchanged ? undefined : callThatLostItsResult(r.before, r.after);
  return lost === undefined ? coherent : check(false, `tool call "${lost}" lost its result`);
}

/** L6 (and L13 with clearings): the input with the recorded clearings and splices replayed is the result. */
function splicesReplayed(r: Compared): LawCheck {
  const { before, after, stretches, cleared } = r;
  // no splice replays to the input itself, which `after` is
  const clearedBefore = cleared.length === 0 ? before : replayClearing(before, cleared);
  const replay = r.unchanged
    ? after
    : typeof clearedBefore === "string"
      ? clearedBefore
      : replaySplices(clearedBefore, stretches);
  return {
    law: "L6",
    title:
      cleared.length === 0
        ? "atomic splices: prefix ++ [summary] ++ suffix"
        : "atomic splices and clearings: only cleared contents and spliced stretches changed (L13)",
    ok: typeof replay !== "string" && (r.unchanged || isDeepStrictEqual(replay, after)),
    detail: typeof replay === "string" ? replay : `${countOf(stretches.length, "splice")} replayed`,
  };
}

/** L8: a run that changed the conversation lowered its token total, and every summary counts fewer tokens than it replaced. */
function tokensReduced(r: Compared, tb: number | null, ta: number | null): LawCheck {
  const changed = r.stretches.length > 0 || r.cleared.length > 0;
  const reduced = !changed ? ta === tb : tb !== null && ta !== null && ta < tb;
  return {
    law: "L8",
    title: "tokens reduced by every compaction",
    ok: reduced && r.stretches.every((s) => s.summaryTokens < s.replacedTokens),
    detail:
      tb === null && ta === null ? "nothing replaced (totals not counted: reported usage)" : `${tb} -> ${ta} tokens`,
  };
}

/** L15's verdict over the pins of the setting `pin`. */
function pinVerdict(ok: boolean, detail: string): LawCheck {
  return { law: "L15", title: "pinned content kept verbatim", ok, detail };
}

/**
 * L15: every message of the input that a pin names is in the result, equal (role, content, calls),
 * read from the final context (not from a summary). The detail says what was pinned: each pin
 * with the input positions of the messages it names.
 */
function pinsKept(before: readonly Message[], after: readonly Message[], pins: readonly Pin[]): LawCheck {
  const named = pinsOfMessages(before, pins);
  // the result's messages by content: a pinned message is looked for among those of its content
  const byContent = new Map<string, Message[]>();
  for (const m of after) {
    const same = byContent.get(m.content);
    if (same === undefined) byContent.set(m.content, [m]);
    else same.push(m);
  }
  const at = new Map<Pin, number[]>();
  let total = 0;
  let missing: number | undefined;
  named.forEach((p, i) => {
    if (p === undefined) return;
    total++;
    at.set(p, [...(at.get(p) ?? []), i]);
    const kept = (byContent.get(before[i].content) ?? []).some((m) => isDeepStrictEqual(m, before[i]));
    if (!kept && missing === undefined) missing = i;
  });
  const which = pins.map((p) => {
    const is = at.get(p) ?? [];
    return `${pinText(p)}: ${is.length === 0 ? "no message" : `messages[${is.join(", ")}]`}`;
  });
  if (missing !== undefined)
    return pinVerdict(
      false,
      `messages[${missing}] (${before[missing].role}) was pinned and is not in the result verbatim; ${which.join("; ")}`,
    );
  return pinVerdict(true, `${countOf(total, "pinned message")} kept verbatim (${which.join("; ")})`);
}

/**
 * Checks L1, L2, L3, L5, L6 and L8 on a result, and L15 when the setting `pin` names pins. The token totals are null when the run did not
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
  const cleared = input.cleared ?? [];
  const unchanged = stretches.length === 0 && cleared.length === 0 && sameMessages(before, after);
  // nothing changed on a well-formed input: every verdict follows from counts
  if (unchanged && input.wellFormed === true)
    return unchangedLaws(c, {
      protectedMessages: protectedCount(before),
      items: (input.items ?? itemMapOf(before)).items,
      tokensBefore: tokens.before,
      tokensAfter: tokens.after,
      dueBefore: tokens.dueBefore,
    });
  const r: Compared = { before, after, stretches, cleared, unchanged };
  const pins = parsePins(c.pin);
  return [
    compactedOnlyWhenDue(r, tokens.dueBefore),
    protectedMessagesKept(r),
    retentionWindowKept(r, c, input.items ?? itemMapOf(before)),
    toolCallsCoherent(r, input.wellFormed === true),
    splicesReplayed(r),
    tokensReduced(r, tokens.before, tokens.after),
    ...(pins.length === 0 ? [] : [pinsKept(before, after, pins)]),
  ];
}

/** What the law checks of a run that changed nothing read: counts of its well-formed input. */
export interface UnchangedRun {
  /** the input's user and system messages */
  readonly protectedMessages: number;
  /** the input's items (the caller's, as retention_window counts them) */
  readonly items: number;
  readonly tokensBefore: number | null;
  readonly tokensAfter: number | null;
  readonly dueBefore: boolean;
}

/**
 * checkLaws' verdicts for a run that spliced and cleared nothing and returned its well-formed
 * input's own messages: L2, L3, L5 and L6 hold by identity, L1 and L8 read the counts. O(1), for a
 * caller that knows the counts without the messages (a session's run that is not due).
 */
export function unchangedLaws(c: Config, u: UnchangedRun): LawCheck[] {
  const none: ReplacedStretch[] = [];
  const r = { before: [], after: [], stretches: none, cleared: [], unchanged: true } as const;
  return [
    compactedOnlyWhenDue(r, u.dueBefore),
    protectedVerdict(true, u.protectedMessages, u.protectedMessages),
    windowVerdict(true, c, u.items),
    toolCallsCoherent(r, true),
    splicesReplayed(r),
    tokensReduced(r, u.tokensBefore, u.tokensAfter),
    // nothing changed: every message a pin names is in the result, the input's own
    ...(c.pin.length === 0
      ? []
      : [pinVerdict(true, `no message changed: every pinned message kept (${c.pin.join("; ")})`)]),
  ];
}
