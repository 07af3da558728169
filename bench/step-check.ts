// The per-step "is compaction due" check of an agent (issue 20, item 6). An
// agent of 1k and 10k AI SDK messages takes 100 steps, each adding an assistant tool call and its
// result, under a trigger it never reaches; the CPU time per step is measured before (what
// compactBeforeStep did until the due tracker: a whole compactModelMessages run at every step) and
// after (compactBeforeStep with its tracker), and the same for an agent owning a ConversationStore
// (before: compactStore at every step; after: storeDueBy). Ratios are before / after in this run.
// The command is step-check-run.ts.
import type { ModelMessage } from "ai";
import { writeModelMessages } from "../src/adapters/ai-sdk.ts";
import { parseConfig } from "../src/engine/boundary/config-rules.ts";
import { compactStore } from "../src/engine/run/compact.ts";
import { storeDueBy } from "../src/engine/run/plan.ts";
import { ConversationStore } from "../src/engine/store/store.ts";
import { compactBeforeStep, compactModelMessages } from "../src/library/ai-sdk.ts";
import type { Message } from "../src/model/message.ts";
import { charCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { generateConversation } from "./conversation.ts";
import { collect, consume, cpuMs, median, type Repetitions } from "./measure.ts";
import { STEP_CHECK_HEADING } from "./section-file.ts";
import { fmt, fmtN, fmtRatio, table } from "./table.ts";

const STEPS = 100;
const REPS: Repetitions = { warmup: 1, reps: 5 };
const config = parseConfig({ token_threshold: 1_000_000_000, tokenizer: "chars" });

/** The two messages one agent step adds (engine model, so both the hook and the store can take them). */
function stepMessages(k: number): Message[] {
  return [
    { role: "assistant", content: "", toolCalls: [{ id: `bench-step-${k}`, name: "ls", arguments: "{}" }] },
    { role: "tool", toolCallId: `bench-step-${k}`, content: "a.ts\nb.ts\nc.ts" },
  ];
}

/** A generated history whose last tool call is answered, so that steps can follow it. */
function history(n: number): Message[] {
  const ms = generateConversation(n, { seed: 11 });
  while (ms.length > 0 && ms[ms.length - 1].role !== "user" && ms[ms.length - 1].role !== "tool") ms.pop();
  return ms;
}

/** CPU ms per step of 100 steps of an AI SDK agent; `hook` is made once per sample, its first (full) check untimed. */
async function sdkSteps(
  initial: readonly ModelMessage[],
  adds: readonly ModelMessage[][],
  hook: () => (messages: ModelMessage[]) => Promise<unknown>,
): Promise<number> {
  const samples: number[] = [];
  for (let s = 0; s < REPS.warmup + REPS.reps; s++) {
    const check = hook();
    let messages = [...initial];
    await check(messages);
    collect();
    const t0 = cpuMs();
    for (const add of adds) {
      messages = [...messages, ...add]; // the AI SDK gives each step a new array
      consume(((await check(messages)) === undefined ? 0 : 1) + messages.length);
    }
    if (s >= REPS.warmup) samples.push((cpuMs() - t0) / adds.length);
  }
  return median(samples);
}

/** CPU ms per step of 100 steps of an agent owning a store: append the step's messages, then check. */
async function storeSteps(
  initial: readonly Message[],
  adds: readonly Message[][],
  check: (store: ConversationStore) => Promise<unknown>,
): Promise<number> {
  const samples: number[] = [];
  for (let s = 0; s < REPS.warmup + REPS.reps; s++) {
    const store = new ConversationStore(charCounter(), initial);
    collect();
    const t0 = cpuMs();
    for (const add of adds) {
      for (const m of add) store.append(m);
      consume(((await check(store)) === "none" ? 0 : 1) + store.messages.length);
    }
    if (s >= REPS.warmup) samples.push((cpuMs() - t0) / adds.length);
  }
  return median(samples);
}

/** One size's figures: ms per step, before and after, for the hook and for the store. */
export interface StepRow {
  readonly n: number;
  readonly hookBefore: number;
  readonly hookAfter: number;
  readonly storeBefore: number;
  readonly storeAfter: number;
}

/** Measures one size. */
export async function stepCheckBySize(n: number): Promise<StepRow> {
  const initial = history(n);
  const adds = Array.from({ length: STEPS }, (_, k) => stepMessages(k));
  const sdkInitial = writeModelMessages(initial);
  const sdkAdds = adds.map((a) => writeModelMessages(a.slice(0, 1)).concat(toolItem(a[1])));
  const summarizer = offlineSummarizer(charCounter());
  const hookBefore = await sdkSteps(
    sdkInitial,
    sdkAdds,
    () => (messages) => compactModelMessages(messages, config, { counter: charCounter(), summarizer }),
  );
  const hookAfter = await sdkSteps(sdkInitial, sdkAdds, () => {
    const hook = compactBeforeStep(config, { counter: charCounter(), summarizer });
    return (messages) => hook({ messages });
  });
  const storeBefore = await storeSteps(initial, adds, async (store) => {
    const r = await compactStore(store, config, { summarizer });
    return r.dueBefore ? "due" : "none";
  });
  const storeAfter = await storeSteps(initial, adds, async (store) => storeDueBy(store, config));
  return { n, hookBefore, hookAfter, storeBefore, storeAfter };
}

/** A tool message on its own, in AI SDK shape (writeModelMessages needs its call in the same list for the tool name). */
function toolItem(m: Message): ModelMessage {
  if (m.role !== "tool") throw new Error("expected a tool message");
  return {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: m.toolCallId, toolName: "ls", output: { type: "text", value: m.content } },
    ],
  };
}

/** The section's lines. */
export function stepSection(rows: readonly StepRow[]): string[] {
  const us = (ms: number) => fmt(ms * 1000, 1);
  return [
    STEP_CHECK_HEADING,
    "",
    `Run ${new Date().toISOString()} with \`npm run bench:step\` on Node ${process.version}. An agent of n messages takes ${STEPS}`,
    "steps, each adding an assistant tool call and its result, under a token trigger it never reaches (character",
    `counter). CPU time per step (µs), median of ${REPS.reps} samples of the ${STEPS} steps after ${REPS.warmup} warm-up. AI SDK hook: before =`,
    "a whole `compactModelMessages` at every step (what `compactBeforeStep` ran until it had a due tracker); after =",
    "`compactBeforeStep`, whose tracker reads and counts only the messages it has not seen (plus one identity",
    "comparison per message seen); each step's array is a new copy of the history, built inside the timed loop as",
    "the AI SDK builds it. Store: before = `compactStore` at every step after the appends; after = the",
    "appends and `storeDueBy` (the store's running counts through the kernel's trigger). Ratio = before / after.",
    "",
    table(
      [
        "messages",
        "hook before (µs/step)",
        "hook after (µs/step)",
        "ratio",
        "store before (µs/step)",
        "store after (µs/step)",
        "ratio",
      ],
      rows.map((r) => [
        fmtN(r.n),
        us(r.hookBefore),
        us(r.hookAfter),
        fmtRatio(r.hookBefore / r.hookAfter),
        us(r.storeBefore),
        us(r.storeAfter),
        fmtRatio(r.storeBefore / r.storeAfter),
      ]),
    ),
    "",
  ];
}
