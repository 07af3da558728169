// The offline default: a deterministic extractive summary, so the CLI works with no key and no
// network. It lists the required facts verbatim (so it passes validation), then adds first lines
// of the stretch's messages while the summary stays under the budget its request states.
import type { Message } from "../model/message.ts";
import type { BatchSummaryRequest, Summarizer, SummaryRequest } from "../model/summarizer.ts";
import { MESSAGE_OVERHEAD, type TokenCounter } from "../model/tokens.ts";

const NOTE_CHARS = 120;

function firstLine(text: string, max: number): string {
  const line =
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  return line.length <= max ? line : `${line.slice(0, max - 3)}...`;
}

function toolTally(stretch: readonly Message[]): string {
  const counts = new Map<string, number>();
  for (const m of stretch)
    if (m.role === "assistant") for (const c of m.toolCalls) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  const total = Array.from(counts.values()).reduce((a, b) => a + b, 0);
  if (total === 0) return "no tool calls";
  return `${total} tool call${total === 1 ? "" : "s"}: ${Array.from(counts, ([n, k]) => (k === 1 ? n : `${n} x${k}`)).join(", ")}`;
}

function notes(stretch: readonly Message[]): string[] {
  const callName = new Map<string, string>();
  const out: string[] = [];
  for (const m of stretch) {
    if (m.role === "assistant") {
      for (const c of m.toolCalls) callName.set(c.id, c.name);
      if (m.content.trim() !== "") out.push(`- assistant: ${firstLine(m.content, NOTE_CHARS)}`);
    } else if (m.role === "tool") {
      const line = firstLine(m.content, NOTE_CHARS);
      if (line !== "") out.push(`- ${callName.get(m.toolCallId) ?? "tool"}${m.isError ? " (error)" : ""}: ${line}`);
    } else if (m.role === "summary") {
      out.push(`- earlier: ${firstLine(m.content, NOTE_CHARS)}`);
    }
  }
  return out;
}

/** The built-in deterministic extractive summarizer (counts with `counter`). */
export function offlineSummarizer(counter: TokenCounter): Summarizer {
  const summarizer = {
    name: "offline",
    /** Several stretches at once: each summarized as summarize does, no call to make. */
    summarizeBatch(req: BatchSummaryRequest): Promise<(string | undefined)[]> {
      return Promise.all(req.parts.map((part) => summarizer.summarize(part)));
    },
    async summarize(req: SummaryRequest): Promise<string> {
      // the budget the prompt states (a share of the stretch: summary_percent), within maxTokens
      const budget =
        Math.min(req.budgetTokens ?? req.maxTokens, req.maxTokens, req.replacedTokens - 1) - MESSAGE_OVERHEAD;
      const n = req.stretch.length;
      const head = `Earlier work (${n} message${n === 1 ? "" : "s"}, ${toolTally(req.stretch)}).`;
      const lines = [head];
      if (req.previousSummary !== undefined) lines.push(`Before that: ${firstLine(req.previousSummary, NOTE_CHARS)}`);
      if (req.requiredFacts.length > 0) lines.push(`Facts: ${req.requiredFacts.join(" ; ")}`);
      // The facts are mandatory; notes are added only while the whole text fits the budget.
      let used = counter.count(lines.join("\n"));
      const candidates = notes(req.stretch);
      if (candidates.length > 0 && used < budget) {
        const noteHead = "Notes:";
        used += counter.count(`\n${noteHead}`);
        const kept: string[] = [];
        for (const note of candidates) {
          const cost = counter.count(`\n${note}`);
          if (used + cost > budget) break;
          kept.push(note);
          used += cost;
        }
        if (kept.length > 0) lines.push(noteHead, ...kept);
      }
      let text = lines.join("\n");
      // Per-line counts can undercount the joined text by a token here and there: trim notes until exact.
      while (counter.count(text) > budget && lines.length > 1 && lines[lines.length - 1].startsWith("- ")) {
        lines.pop();
        if (lines[lines.length - 1] === "Notes:") lines.pop();
        text = lines.join("\n");
      }
      return text;
    },
  };
  return summarizer;
}
