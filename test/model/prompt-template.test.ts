// The batch prompt: with the built-in prompt it states the shared instructions once and, per
// stretch, only what differs (budget, earlier summary, facts, excerpt, numbered tag); a custom
// template is rendered whole for each stretch, as safecut cannot tell its shared lines apart.
import { describe, expect, it } from "vitest";
import {
  batchPartHeading,
  batchPartTag,
  DEFAULT_PROMPT,
  type PromptValues,
  renderBatchPrompt,
  renderPrompt,
} from "../../src/model/prompt-template.ts";

/** Occurrences of `needle` in `text`. */
const count = (text: string, needle: string) => text.split(needle).length - 1;

/** The built-in prompt's instruction sentences, as a single stretch's prompt states them. */
const INSTRUCTIONS = [
  "You are compacting the history of an AI agent's conversation so the agent can continue its work without the original messages.",
  "Write a concise summary of the conversation excerpt below: what was asked, what was done, which tools were called and what they returned, decisions taken, and what is still open.",
  "Keep every file path, identifier and error message verbatim.",
];

const parts: PromptValues[] = [
  {
    conversation: "[user] fix src/a.ts",
    previousSummary: undefined,
    requiredFacts: ["src/a.ts"],
    maxTokens: 120,
    summaryTag: batchPartTag("summary", 1),
  },
  {
    conversation: "[assistant] ran the tests: ERR_ONE",
    previousSummary: "the agent set up the repo",
    requiredFacts: ["ERR_ONE", "test/b.test.ts"],
    maxTokens: 345,
    summaryTag: batchPartTag("summary", 2),
  },
  {
    conversation: "[user] now the docs",
    previousSummary: undefined,
    requiredFacts: [],
    maxTokens: 67,
    summaryTag: batchPartTag("summary", 3),
  },
];

/** The k-th (1-based) part of a batch prompt: from its heading to the next one. */
function partOf(prompt: string, k: number, n: number): string {
  const from = prompt.indexOf(batchPartHeading(k, n));
  const to = k < n ? prompt.indexOf(batchPartHeading(k + 1, n)) : prompt.length;
  expect(from).toBeGreaterThanOrEqual(0);
  return prompt.slice(from, to);
}

describe("batch prompt, built-in prompt", () => {
  const prompt = renderBatchPrompt(DEFAULT_PROMPT, parts);

  it("a single stretch's prompt states every instruction", () => {
    const single = renderPrompt(DEFAULT_PROMPT, parts[0]);
    for (const line of INSTRUCTIONS) expect(count(single, line)).toBe(1);
  });

  it("states each instruction exactly once, before the first part", () => {
    const first = prompt.indexOf(batchPartHeading(1, 3));
    for (const line of INSTRUCTIONS) {
      expect(count(prompt, line)).toBe(1);
      expect(prompt.indexOf(line)).toBeLessThan(first);
    }
  });

  it("states in each part its own budget, earlier summary, facts, excerpt and numbered tag", () => {
    parts.forEach((v, i) => {
      const part = partOf(prompt, i + 1, 3);
      expect(part).toContain(`Use at most ${v.maxTokens} tokens.`);
      expect(count(part, "Use at most")).toBe(1);
      expect(part).toContain(`Conversation excerpt:\n${v.conversation}\n`);
      expect(part).toContain(`inside <${v.summaryTag}></${v.summaryTag}>`);
      for (const f of v.requiredFacts) expect(part).toContain(`\n- ${f}\n`);
      if (v.requiredFacts.length === 0) expect(part).toContain("summary:\n(none)\n");
      if (v.previousSummary === undefined) expect(part).not.toContain("<previous_summary>");
      else expect(part).toContain(`<previous_summary>\n${v.previousSummary}\n</previous_summary>`);
      for (const line of INSTRUCTIONS) expect(part).not.toContain(line);
    });
    // no part's facts or excerpt leak into another part
    expect(partOf(prompt, 1, 3)).not.toContain("ERR_ONE");
    expect(partOf(prompt, 3, 3)).not.toContain("src/a.ts");
  });

  it("is shorter than the custom form (each part's whole prompt) by about the instructions repeated", () => {
    // a template differing from the built-in one (a trailing newline) is a custom one: today's form
    const whole = renderBatchPrompt(`${DEFAULT_PROMPT}\n`, parts);
    expect(count(whole, INSTRUCTIONS[0])).toBe(parts.length);
    const saved = whole.length - prompt.length;
    const instructions = INSTRUCTIONS.join("\n").length;
    // the shared header's lead-in costs less than 200 characters
    expect(saved).toBeGreaterThan((parts.length - 1) * instructions - 200);
    expect(saved).toBeLessThan(parts.length * instructions);
  });
});

describe("batch prompt, custom template", () => {
  const template = "CUSTOM keep {{required_facts}} in {{max_tokens}}\n{{conversation}}\nwrap in <{{summary_tag}}>";

  it("renders the whole template for each part, under its heading", () => {
    const prompt = renderBatchPrompt(template, parts);
    expect(count(prompt, "CUSTOM keep")).toBe(3);
    parts.forEach((v, i) => {
      expect(partOf(prompt, i + 1, 3)).toContain(`${batchPartHeading(i + 1, 3)}\n${renderPrompt(template, v)}`);
    });
    for (const line of INSTRUCTIONS) expect(prompt).not.toContain(line);
  });
});
