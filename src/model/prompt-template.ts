// The default summarization prompt and the template placeholders. The summarizer sees the
// stretch as plain text, the previous summary (rolling summary), and the facts it must keep.

/** The default prompt template (placeholders in double braces). */
export const DEFAULT_PROMPT = [
  "You are compacting the history of an AI agent's conversation so the agent can continue its work without the original messages.",
  "Write a concise summary of the conversation excerpt below: what was asked, what was done, which tools were called and what they returned, decisions taken, and what is still open.",
  "Keep every file path, identifier and error message verbatim. Use at most {{max_tokens}} tokens.",
  "{{previous_summary}}",
  "These facts must appear verbatim in the summary:",
  "{{required_facts}}",
  "",
  "Conversation excerpt:",
  "{{conversation}}",
  "",
  "Answer with the summary only, inside <{{summary_tag}}></{{summary_tag}}>.",
].join("\n");

/** Values substituted into a prompt template. */
export interface PromptValues {
  readonly conversation: string;
  readonly previousSummary: string | undefined;
  readonly requiredFacts: readonly string[];
  /** the budget the prompt states ({{max_tokens}}): the stretch's share (summary_percent) within max_tokens, or an aged summary's budget */
  readonly maxTokens: number;
  readonly summaryTag: string;
}

/** Fills a prompt template; unknown placeholders are left as written. */
export function renderPrompt(template: string, v: PromptValues): string {
  const previous =
    v.previousSummary === undefined
      ? ""
      : `The excerpt continues from this earlier summary; fold it into the new summary:\n<previous_summary>\n${v.previousSummary}\n</previous_summary>`;
  const table: Record<string, string> = {
    conversation: v.conversation,
    previous_summary: previous,
    required_facts: v.requiredFacts.length === 0 ? "(none)" : v.requiredFacts.map((f) => `- ${f}`).join("\n"),
    max_tokens: String(v.maxTokens),
    summary_tag: v.summaryTag,
  };
  // one pass, so text substituted in (a transcript containing "{{x}}") is never expanded again
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => table[name] ?? whole);
}

/** The tag the k-th summary (1-based) of a batch answer is wrapped in. */
export function batchPartTag(summaryTag: string, k: number): string {
  return `${summaryTag}_${k}`;
}

/** The line that opens the k-th of n prompts in a batch prompt. */
export function batchPartHeading(k: number, n: number): string {
  return `=== excerpt ${k} of ${n} ===`;
}

/**
 * One prompt asking for the summaries of several stretches: each stretch's own prompt (the
 * template rendered with its tag numbered, batchPartTag), under a heading, one after the other.
 */
export function renderBatchPrompt(parts: readonly string[]): string {
  const n = parts.length;
  return [
    `Below are ${n} separate tasks, each on a different excerpt of one conversation. Do each task on its own, with only its own excerpt, and answer all ${n}, each summary inside its own numbered tag.`,
    ...parts.flatMap((p, i) => ["", batchPartHeading(i + 1, n), p]),
  ].join("\n");
}
