// The default summarization prompt and the template placeholders. The summarizer sees the
// stretch as plain text, the previous summary (rolling summary), and the facts it must keep.

/**
 * The built-in prompt's instructions, the same for every stretch: a batch prompt states them once
 * (renderBatchPrompt). Part of DEFAULT_PROMPT, its one source.
 */
const DEFAULT_INSTRUCTIONS = [
  "You are compacting the history of an AI agent's conversation so the agent can continue its work without the original messages.",
  "Write a concise summary of the conversation excerpt below: what was asked, what was done, which tools were called and what they returned, decisions taken, and what is still open.",
  "Keep every file path, identifier and error message verbatim.",
].join("\n");

/** The built-in prompt's part that differs per stretch: its budget, earlier summary, facts, excerpt and tag. */
const DEFAULT_TASK = [
  "Use at most {{max_tokens}} tokens.",
  "{{previous_summary}}",
  "These facts must appear verbatim in the summary:",
  "{{required_facts}}",
  "",
  "Conversation excerpt:",
  "{{conversation}}",
  "",
  "Answer with the summary only, inside <{{summary_tag}}></{{summary_tag}}>.",
].join("\n");

/** The default prompt template (placeholders in double braces): the instructions, then the stretch's task. */
export const DEFAULT_PROMPT = `${DEFAULT_INSTRUCTIONS} ${DEFAULT_TASK}`;

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

/** A batch prompt in its pieces: the head every call of it states once, and each part's text. */
export interface BatchPromptPieces {
  readonly head: string;
  /** part k's text, its heading first; the prompt is the head and the parts joined by "\n" */
  readonly parts: readonly string[];
}

/**
 * The pieces of the prompt asking for the summaries of several stretches (`parts`: each
 * stretch's values, its tag numbered with batchPartTag), each under its heading. With the built-in
 * prompt (`template` is DEFAULT_PROMPT) the instructions every stretch shares are stated once, and
 * each part holds only what differs: its budget, the earlier summary it folds in, its facts, its
 * excerpt, its tag. A custom template is rendered whole for each part, since which of its lines
 * are shared cannot be known. `n`: the count the intro and headings state (default the parts').
 */
export function batchPromptPieces(
  template: string,
  parts: readonly PromptValues[],
  n = parts.length,
): BatchPromptPieces {
  const intro = `Below are ${n} separate tasks, each on a different excerpt of one conversation. Do each task on its own, with only its own excerpt, and answer all ${n}, each summary inside its own numbered tag.`;
  const shared = template === DEFAULT_PROMPT;
  const head = shared
    ? [
        intro,
        "These instructions apply to every task; each task states its own budget, facts, excerpt and tag:",
        DEFAULT_INSTRUCTIONS,
      ]
    : [intro];
  const part = shared ? DEFAULT_TASK : template;
  return {
    head: head.join("\n"),
    parts: parts.map((v, i) => ["", batchPartHeading(i + 1, n), renderPrompt(part, v)].join("\n")),
  };
}

/** One prompt asking for the summaries of several stretches: batchPromptPieces joined. */
export function renderBatchPrompt(template: string, parts: readonly PromptValues[]): string {
  const p = batchPromptPieces(template, parts);
  return [p.head, ...p.parts].join("\n");
}
