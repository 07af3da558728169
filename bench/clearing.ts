// The clearing tier (L13) against summarizing, by counts, not time: an agent session replayed
// model call by model call (before each assistant message the history is compacted as an agent
// hook would, then the message and its tool results are appended), once per strategy, over the
// generated long coding session and the example sessions. Reported: summarizer calls and the
// tokens sent to the summarizer (the stretches it was asked to replace), tokens freed by
// clearing, and how often the prompt's prefix changed (clearing or summarizing events per 100
// model calls: each one is a prompt-cache miss), with and without clear_at_least. Every figure
// is a count within this run; `tsx bench/clearing.ts` prints the section alone.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readConversationFile } from "../src/adapters/conversation-file.ts";
import { compactMessages } from "../src/library/compact-messages.ts";
import type { ConfigInput } from "../src/model/config.ts";
import type { Message } from "../src/model/message.ts";
import type { Summarizer } from "../src/model/summarizer.ts";
import { charCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { generateConversation } from "./conversation.ts";
import { fmt, table } from "./table.ts";

/** The generated session's length in `npm run bench`. */
export const CLEARING_SESSION_MESSAGES = 3_000;

/** One replayed session under one configuration. */
export interface ClearingRun {
  readonly session: string;
  readonly label: string;
  readonly modelCalls: number;
  readonly summarizerCalls: number;
  /** tokens of the stretches the summarizer was asked to replace, summed over its calls */
  readonly summarizerTokens: number;
  readonly clearingEvents: number;
  readonly resultsCleared: number;
  readonly tokensFreedByClearing: number;
  /** runs that changed the history (clearing or summarizing): prompt-prefix changes */
  readonly prefixChanges: number;
  /** the largest prompt the agent sent, and the total of all prompts, in tokens */
  readonly peakPrompt: number;
  readonly promptTokens: number;
  readonly lawsOk: boolean;
}

/** The configurations compared; the trigger is shared, only the strategy and clear_at_least differ. */
export const CLEARING_CONFIGS: readonly (readonly [string, ConfigInput])[] = [
  ["summarize", { strategy: "summarize" }],
  ["clear", { strategy: "clear", clear_at_least: 0 }],
  ["clear, clear_at_least 2000", { strategy: "clear", clear_at_least: 2_000 }],
  ["clear, clear_at_least 10000", { strategy: "clear", clear_at_least: 10_000 }],
  ["clear-then-summarize", { strategy: "clear-then-summarize", clear_at_least: 0 }],
  ["clear-then-summarize, clear_at_least 2000", { strategy: "clear-then-summarize", clear_at_least: 2_000 }],
  ["clear-then-summarize, clear_at_least 10000", { strategy: "clear-then-summarize", clear_at_least: 10_000 }],
  [
    "clear-then-summarize, clear_at_least 2000, clear_inputs",
    { strategy: "clear-then-summarize", clear_at_least: 2_000, clear_inputs: true },
  ],
];

/** Replays `session` call by call under `config` (chars counter, offline summarizer counted). */
export async function replay(
  session: string,
  messages: readonly Message[],
  label: string,
  config: ConfigInput,
): Promise<ClearingRun> {
  const counter = charCounter();
  const offline = offlineSummarizer(counter);
  let summarizerCalls = 0;
  let summarizerTokens = 0;
  const summarizer: Summarizer = {
    name: "counted offline",
    async summarize(r) {
      summarizerCalls++;
      summarizerTokens += r.replacedTokens;
      return offline.summarize(r);
    },
  };
  let history: Message[] = [];
  let modelCalls = 0;
  let clearingEvents = 0;
  let resultsCleared = 0;
  let freed = 0;
  let prefixChanges = 0;
  let peakPrompt = 0;
  let promptTokens = 0;
  let lawsOk = true;
  for (const m of messages) {
    if (m.role === "assistant" && history.length > 0) {
      // the model is called with the history so far: compact it first, as an agent's hook does
      const r = await compactMessages(history, { tokenizer: "chars", ...config }, { summarizer, counter });
      modelCalls++;
      const k = r.report.clearing;
      if (k !== undefined && k.results > 0) {
        clearingEvents++;
        resultsCleared += k.results;
        freed += k.tokensFreed;
      }
      if (r.report.stretches.length > 0 || (k?.results ?? 0) > 0) prefixChanges++;
      lawsOk &&= r.report.laws.every((l) => l.ok);
      const prompt = r.report.tokensAfter ?? 0;
      peakPrompt = Math.max(peakPrompt, prompt);
      promptTokens += prompt;
      history = r.messages;
    }
    history.push(m);
  }
  return {
    session,
    label,
    modelCalls,
    summarizerCalls,
    summarizerTokens,
    clearingEvents,
    resultsCleared,
    tokensFreedByClearing: freed,
    prefixChanges,
    peakPrompt,
    promptTokens,
    lawsOk,
  };
}

/** The sessions: the generated long coding session and the two example files. */
export function clearingSessions(
  generated = 3_000,
): { name: string; messages: readonly Message[]; threshold: number }[] {
  const examples = join(import.meta.dirname, "..", "examples");
  const file = (name: string) => readConversationFile(readFileSync(join(examples, name), "utf8")).messages;
  return [
    {
      name: `generated coding session (${generated} messages)`,
      messages: generateConversation(generated, { seed: 21 }),
      threshold: 60_000,
    },
    { name: "examples/session.openai.json", messages: file("session.openai.json"), threshold: 8_000 },
    { name: "examples/session.anthropic.jsonl", messages: file("session.anthropic.jsonl"), threshold: 8_000 },
  ];
}

/** Replays every session under every configuration. */
export async function clearingRuns(
  generated = CLEARING_SESSION_MESSAGES,
  log: (line: string) => void = () => {},
): Promise<ClearingRun[]> {
  const out: ClearingRun[] = [];
  for (const s of clearingSessions(generated)) {
    for (const [label, config] of CLEARING_CONFIGS) {
      log(`clearing: ${s.name}, ${label} ...`);
      out.push(await replay(s.name, s.messages, label, { ...config, token_threshold: s.threshold }));
    }
  }
  return out;
}

const per100 = (x: number, calls: number) => (calls === 0 ? "—" : fmt((100 * x) / calls, 1));
const ratio = (x: number, base: number) => (base === 0 ? "—" : `${fmt(x / base, 2)}x`);

/** The section of bench/RESULTS.md. */
export function clearingSection(runs: readonly ClearingRun[]): string[] {
  const sessions = [...new Set(runs.map((r) => r.session))];
  const out = [
    "## Clearing tool results (L13) against summarizing",
    "",
    "Each session is replayed model call by model call: before every assistant message the history is compacted",
    "(`compactMessages`, chars counter, offline summarizer, retention_window 6, clear_keep 3), then the message and its",
    "results are appended. Summarizer tokens are the tokens of the stretches it was asked to replace. A prefix change is a",
    "call whose history was rewritten (cleared or summarized): the provider's prompt cache misses from there on. Peak prompt:",
    "the largest history sent to the model, in tokens. token_threshold is 60000 on the generated session, 8000 on the examples.",
    "Ratios are against `summarize` on the same session in this run.",
    "",
  ];
  for (const s of sessions) {
    const rows = runs.filter((r) => r.session === s);
    const base = rows.find((r) => r.label === "summarize");
    out.push(`### ${s}`, "");
    out.push(
      table(
        [
          "configuration",
          "model calls",
          "summarizer calls",
          "vs summarize",
          "summarizer tokens",
          "vs summarize",
          "results cleared",
          "tokens freed by clearing",
          "clearing events / 100 calls",
          "prefix changes / 100 calls",
          "peak prompt",
          "laws",
        ],
        rows.map((r) => [
          r.label,
          String(r.modelCalls),
          String(r.summarizerCalls),
          ratio(r.summarizerCalls, base?.summarizerCalls ?? 0),
          String(r.summarizerTokens),
          ratio(r.summarizerTokens, base?.summarizerTokens ?? 0),
          String(r.resultsCleared),
          String(r.tokensFreedByClearing),
          per100(r.clearingEvents, r.modelCalls),
          per100(r.prefixChanges, r.modelCalls),
          String(r.peakPrompt),
          r.lawsOk ? "ok" : "FAILED",
        ]),
      ),
      "",
    );
  }
  return out;
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const generated = Number(process.argv[2] ?? CLEARING_SESSION_MESSAGES);
  const runs = await clearingRuns(generated, (l) => process.stderr.write(`${l}\n`));
  process.stdout.write(`${clearingSection(runs).join("\n")}\n`);
}
