// Runtime counterparts of the laws, checked on a finished one-shot compaction (before vs after).
// They re-check outcomes, they do not decide anything: a failure here means a bug, and the CLI
// refuses to write such a result.
import { isDeepStrictEqual } from "node:util";
import type { Config } from "./config.ts";
import { fileMessageCount, internalWindow } from "./file-messages.ts";
import { summaryMessage, type Message } from "./message.ts";
import type { LawCheck, ReplacedStretch } from "./report.ts";
import { assertWellFormed } from "./wellformed.ts";

function protectedOnes(ms: readonly Message[]): Message[] {
  return ms.filter((m) => m.role === "user" || m.role === "system");
}

function answeredCalls(ms: readonly Message[]): Set<string> {
  return new Set(ms.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
}

/** Checks L1, L2, L3, L5, L6 and L8 on a result. */
export function checkLaws(
  before: readonly Message[], after: readonly Message[], stretches: readonly ReplacedStretch[], c: Config, tokens: { before: number; after: number; dueBefore: boolean },
): LawCheck[] {
  const out: LawCheck[] = [];
  const add = (law: string, title: string, ok: boolean, detail: string) => out.push({ law, title, ok, detail });

  add("L1", "compacted only when due", stretches.length === 0 || tokens.dueBefore,
    tokens.dueBefore ? "a trigger was reached before compaction" : "no trigger was reached");

  const pb = protectedOnes(before);
  const pa = protectedOnes(after);
  add("L2", "user and system messages intact and in order", isDeepStrictEqual(pb, pa), `${pa.length} of ${pb.length} kept unchanged`);

  // the window counts the file's own messages: w of them are these last `inner` messages
  const inner = Math.min(internalWindow(before, c.retention_window), before.length);
  const tailSame = after.length >= inner && isDeepStrictEqual(before.slice(before.length - inner), after.slice(after.length - inner));
  add("L3", "retention window identical", tailSame, `last ${Math.min(c.retention_window, fileMessageCount(before))} messages`);

  let coherent = true;
  let detail = "every kept tool result has its call, every kept call keeps its results";
  try {
    assertWellFormed(after);
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
  } catch (e) {
    coherent = false;
    detail = (e as Error).message;
  }
  add("L5", "tool-call coherence (no orphan tool result)", coherent, detail);

  // replay the recorded splices on the input: the result must be exactly that
  let replay: readonly Message[] = before;
  for (const s of stretches) {
    replay = [...replay.slice(0, s.start), summaryMessage(s.summary), ...replay.slice(s.end)];
  }
  add("L6", "atomic splices: prefix ++ [summary] ++ suffix", isDeepStrictEqual(replay, after), `${stretches.length} splice(s) replayed`);

  const reduced = stretches.length === 0 ? tokens.after === tokens.before : tokens.after < tokens.before;
  add("L8", "tokens reduced by every compaction", reduced && stretches.every((s) => s.summaryTokens < s.replacedTokens),
    `${tokens.before} -> ${tokens.after} tokens`);
  return out;
}
