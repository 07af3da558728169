// The evidence ledger around one compaction (setting `ledger`): the ledger message is taken out of
// the input before the run (the engine never summarizes or clears it, and never counts it as
// part of a stretch), then the ledger, extended with the tool steps the run replaced, is put back
// beside the summaries at the slot the kernel gives (ledgerSlot, L5: never between a tool call
// and its result). Format and rules: docs/ledger.md.
import { gateLedgerSlot, gateLedgerStepUse } from "../engine/boundary/kernel-gate.ts";
import {
  EMPTY_LEDGER,
  type EvidenceLedger,
  extendLedger,
  type LedgerCaps,
  ledgerEmpty,
  parseLedger,
  renderLedger,
  type ToolStep,
} from "../engine/summarize/evidence-ledger.ts";
import { InputError } from "../model/errors.ts";
import { kernelRole, type Message, summaryMessage } from "../model/message.ts";

/** The input without its ledger message, the ledger that message held, and where it stood. */
export interface LedgerSplit {
  readonly rest: readonly Message[];
  readonly ledger: EvidenceLedger;
  /** the index of the ledger message in the input, or -1 */
  readonly at: number;
}

/** What a run with the ledger on reports of it: its size after the run. */
export interface LedgerReport {
  readonly chars: number;
  readonly filesModified: number;
  readonly filesRead: number;
  readonly commands: number;
  readonly errors: number;
  readonly steps: number;
}

/** Takes the (one) ledger message out of `messages`; refuses a second. */
export function splitLedger(messages: readonly Message[]): LedgerSplit {
  let at = -1;
  let ledger = EMPTY_LEDGER;
  messages.forEach((m, i) => {
    if (m.role !== "summary") return;
    const l = parseLedger(m.content);
    if (l === undefined) return;
    if (at >= 0) throw new InputError(`messages[${i}]`, "a second evidence ledger message (there is at most one)");
    at = i;
    ledger = l;
  });
  return { rest: at < 0 ? messages : [...messages.slice(0, at), ...messages.slice(at + 1)], ledger, at };
}

/** The tool steps of `messages` in order, by call id: each call with its result's text. */
function toolSteps(messages: readonly Message[]): Map<string, ToolStep> {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === "tool") results.set(m.toolCallId, m.content);
  const out = new Map<string, ToolStep>();
  for (const m of messages)
    if (m.role === "assistant")
      for (const call of m.toolCalls) out.set(call.id, { call, result: results.get(call.id) });
  return out;
}

/**
 * The ledger after a run that turned `before` (the input without its ledger) into `after`: the
 * steps whose result is no longer in `after` as it was (summarized or cleared) are added; the
 * steps still there only close errors; the steps whose result was already a cleared placeholder
 * in `before` (matching `placeholder`, the clear_placeholder setting's pattern) do neither: the
 * run that cleared them entered them, and a placeholder is no success (the kernel's ledgerStepUse).
 */
export function ledgerAfter(
  prev: EvidenceLedger,
  before: readonly Message[],
  after: readonly Message[],
  caps: LedgerCaps,
  placeholder: RegExp,
): EvidenceLedger {
  const now = toolSteps(after);
  const replaced: ToolStep[] = [];
  const kept: ToolStep[] = [];
  const cleared = new Set<string>();
  for (const m of before)
    if (m.role === "tool" && (m.clearedFrom !== undefined || placeholder.test(m.content))) cleared.add(m.toolCallId);
  for (const [id, step] of toolSteps(before)) {
    const there = now.get(id);
    const unchanged =
      there !== undefined && there.result === step.result && there.call.arguments === step.call.arguments;
    const use = gateLedgerStepUse(cleared.has(id), unchanged);
    if (use === "enter") replaced.push(step);
    else if (use === "close") kept.push(step);
  }
  return extendLedger(prev, replaced, kept, caps);
}

/** `messages` with the ledger message inserted beside the summaries: after the last summary (else the leading system messages), at the kernel's slot. */
export function withLedger(messages: readonly Message[], ledger: EvidenceLedger): Message[] {
  if (ledgerEmpty(ledger)) return [...messages];
  let want = 0;
  while (want < messages.length && messages[want].role === "system") want++;
  for (let i = messages.length - 1; i >= want; i--)
    if (messages[i].role === "summary") {
      want = i + 1;
      break;
    }
  const at = gateLedgerSlot(messages.map(kernelRole), want);
  return [...messages.slice(0, at), summaryMessage(renderLedger(ledger)), ...messages.slice(at)];
}

/** The ledger's size, for the result. */
export function ledgerReport(ledger: EvidenceLedger): LedgerReport {
  return {
    chars: ledgerEmpty(ledger) ? 0 : renderLedger(ledger).length,
    filesModified: ledger.filesModified.length,
    filesRead: ledger.filesRead.length,
    commands: ledger.commands.length,
    errors: ledger.errors.length,
    steps: ledger.steps.length,
  };
}
