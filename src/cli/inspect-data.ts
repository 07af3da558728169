// What the context inspector shows, gathered from a conversation (and, for a session, its
// compaction records): each message's role, size and state (kept, a summary, a cleared result,
// in the retention window), what a compaction would do now and why (a dry run: the trigger, the
// plan, the laws checked), the context's tokens at each model call, and a session's timeline.
// Input: the messages as an adapter read them, the settings, and a session's records. Output:
// plain data for inspect-html.ts. Decides nothing: the dry run is the engine's own.
import { placeholderPattern } from "../engine/run/clearing.ts";
import type { CompactionReport } from "../engine/run/report.ts";
import { type CompactMessagesOptions, compactMessages } from "../library/compact-messages.ts";
import type { Config } from "../model/config.ts";
import { type Message, messageText } from "../model/message.ts";
import { tokenCounter } from "../model/tokens.ts";
import type { CompactionRecord } from "../session/record.ts";

/** What a message is in the context now. */
export type MessageState = "instruction" | "provider" | "user" | "kept" | "summary" | "aged" | "cleared" | "window";

/** One message of the strip. */
export interface InspectedMessage {
  readonly index: number;
  readonly role: Message["role"];
  readonly tokens: number;
  readonly state: MessageState;
  /** the start of its text, for the table and the strip's tooltip */
  readonly preview: string;
}

/** One committed compaction of a session. */
export interface TimelineStep {
  readonly time: string;
  readonly trigger: string;
  readonly replaced: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly summarizer: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Everything the page shows. */
export interface Inspection {
  readonly title: string;
  readonly format: string;
  readonly tokenizer: string;
  readonly totalTokens: number;
  /** the token trigger, when one is set (a message-count or window trigger has none) */
  readonly threshold: number | null;
  readonly messages: readonly InspectedMessage[];
  /** the dry run's report: is compaction due, what it would clear and summarize first, the laws checked */
  readonly dryRun: CompactionReport;
  /** the context's tokens before each assistant message: what each model call was sent, as the file holds it */
  readonly tokensPerCall: readonly number[];
  /** a session's committed compactions, oldest first (absent for a file) */
  readonly timeline?: readonly TimelineStep[];
}

const PREVIEW_CHARS = 160;

/** The state of each message: instructions, user turns and the provider's own compaction items are kept by law; summaries (aged or not) and cleared results were compacted. */
function stateOf(m: Message, index: number, windowStart: number, cleared: RegExp): MessageState {
  if (m.role === "system") return m.serverCompaction === true ? "provider" : "instruction";
  if (m.role === "user") return "user";
  if (m.role === "summary") return (m.marker?.aged ?? 0) > 0 ? "aged" : "summary";
  if (m.role === "tool" && cleared.test(m.content)) return "cleared";
  return index >= windowStart ? "window" : "kept";
}

/** What inspect is told besides the messages: their items (AI SDK, Responses) and model, a session's records. */
export interface InspectOptions extends Pick<CompactMessagesOptions, "items" | "agentModel"> {
  /** a session's compactions, oldest first */
  readonly records?: readonly CompactionRecord[];
}

/** Gathers what the page shows of `messages` under `config`. */
export async function inspect(
  title: string,
  format: string,
  messages: readonly Message[],
  config: Config,
  options: InspectOptions = {},
): Promise<Inspection> {
  const { records, ...run } = options;
  const counter = tokenCounter(config.tokenizer);
  const cleared = placeholderPattern(config.clear_placeholder);
  const windowStart = Math.max(0, messages.length - config.retention_window);
  let total = 0;
  const tokensPerCall: number[] = [];
  const inspected = messages.map((m, index) => {
    if (m.role === "assistant") tokensPerCall.push(total);
    const tokens = counter.count(messageText(m)) + (m.mediaTokens ?? 0);
    total += tokens;
    const preview = messageText(m).slice(0, PREVIEW_CHARS);
    return { index, role: m.role, tokens, state: stateOf(m, index, windowStart, cleared), preview };
  });
  const { report } = await compactMessages(messages, config, { ...run, dryRun: true });
  return {
    title,
    format,
    tokenizer: config.tokenizer,
    totalTokens: report.tokensBefore ?? total,
    threshold: config.token_threshold,
    messages: inspected,
    dryRun: report,
    tokensPerCall,
    ...(records === undefined ? {} : { timeline: records.map(timelineStep) }),
  };
}

function timelineStep(r: CompactionRecord): TimelineStep {
  const calls = r.calls ?? [];
  return {
    time: r.time,
    trigger: r.trigger,
    replaced: r.end - r.start,
    tokensBefore: r.tokensBefore,
    tokensAfter: r.tokensAfter,
    summarizer: r.model === undefined ? r.summarizer : `${r.summarizer} (${r.model})`,
    calls: calls.length,
    inputTokens: calls.reduce((s, c) => s + (c.usage?.inputTokens ?? 0), 0),
    outputTokens: calls.reduce((s, c) => s + (c.usage?.outputTokens ?? 0), 0),
  };
}
