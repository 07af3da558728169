// The AI SDK's compaction entries (`safecut/ai-sdk`): compact a `ModelMessage[]`, and the
// `prepareStep` hook that compacts before each step of an agent. The format itself (reading and
// writing the messages) is the adapter's, src/adapters/ai-sdk.ts.
import type { ModelMessage } from "ai";
import { readModelMessages, writeModelMessages } from "../adapters/ai-sdk.ts";
import { parseConfig } from "../engine/boundary/config-rules.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import type { Config, ConfigInput } from "../model/config.ts";
import type { CompactMessagesOptions } from "./compact-messages.ts";
import { compactReading } from "./compact-reading.ts";

/** Compacts AI SDK messages; `retention_window` and the report's positions count these messages. */
export async function compactModelMessages(
  messages: readonly ModelMessage[],
  config: ConfigInput | Config = {},
  options: CompactMessagesOptions = {},
): Promise<{ messages: ModelMessage[]; report: CompactionReport }> {
  return modelMessagesUnder(messages, parseConfig(config), options);
}

/** compactModelMessages under a parsed configuration (compactBeforeStep parses once, not at every step). */
async function modelMessagesUnder(
  messages: readonly ModelMessage[],
  c: Config,
  options: CompactMessagesOptions,
): Promise<{ messages: ModelMessage[]; report: CompactionReport }> {
  const tag = c.summary_tag;
  const reading = readModelMessages(messages, "messages", { summaryTag: tag });
  const r = await compactReading(
    { ...reading, write: (ms) => writeModelMessages(ms, reading, { summaryTag: tag }) },
    c,
    options,
  );
  return { messages: r.written, report: r.report };
}

/** What the `prepareStep` hook is given and returns (a structural subset of the AI SDK's own). */
export interface PrepareStepMessages {
  readonly messages: ModelMessage[];
}

/**
 * A `prepareStep` for `generateText`, `streamText` and `ToolLoopAgent`: before each step,
 * compacts the step's messages when a trigger fires and returns them (the AI SDK carries them
 * to later steps); returns undefined, leaving the step as it is, when nothing was replaced or cleared.
 * `onReport` receives every run's report. A summarizer failure leaves the messages as they were.
 */
export function compactBeforeStep(
  config: ConfigInput | Config = {},
  options: CompactMessagesOptions & { readonly onReport?: (r: CompactionReport) => void } = {},
): (step: PrepareStepMessages) => Promise<{ messages: ModelMessage[] } | undefined> {
  const c = parseConfig(config); // a bad configuration fails when the agent is built, not at its first step
  return async (step) => {
    const r = await modelMessagesUnder(step.messages, c, options);
    options.onReport?.(r.report);
    const changed = r.report.stretches.length > 0 || (r.report.clearing?.results ?? 0) > 0;
    return changed ? { messages: r.messages } : undefined;
  };
}
