// The answers an imitated summarizer gives to the library's prompts: one summary per excerpt of a
// prompt (a batch prompt holds several), each in its tag, made of the facts the excerpt's prompt
// asks to keep, or what the test says for that excerpt.
import { batchPartHeading, batchPartTag } from "../../src/model/prompt-template.ts";
import { promptOf, type RecordedRequest } from "./http-imitation.ts";

/** The facts a stretch's prompt asks to keep, joined into a short summary. */
export function factsSummary(prompt: string): string {
  const start = prompt.indexOf("These facts must appear verbatim in the summary:\n");
  const end = prompt.indexOf("\n\nConversation excerpt:", start);
  if (start < 0 || end < 0) return "the agent worked";
  const facts = prompt
    .slice(start, end)
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
  return `the agent worked on: ${facts.join("; ")}`;
}

/** The excerpts' prompts of a request's prompt (one for a single stretch's prompt). */
export function partsOf(prompt: string): string[] {
  const m = /^=== excerpt 1 of (\d+) ===$/m.exec(prompt);
  if (m === null) return [prompt];
  const n = Number(m[1]);
  return Array.from({ length: n }, (_, i) => {
    const from = prompt.indexOf(batchPartHeading(i + 1, n));
    const to = i + 1 < n ? prompt.indexOf(batchPartHeading(i + 2, n)) : prompt.length;
    return prompt.slice(from, to);
  });
}

/**
 * The answer to a request: for each excerpt, `say(part, k)` (k 1-based; undefined: leave that
 * summary out) or, by default, its facts; each in its tag.
 */
export function answer(req: RecordedRequest, say?: (part: string, k: number) => string | undefined): string {
  const parts = partsOf(promptOf(req));
  const text = (p: string, k: number) => (say === undefined ? factsSummary(p) : say(p, k));
  if (parts.length === 1) return `<summary>${text(parts[0], 1) ?? ""}</summary>`;
  return parts
    .map((p, i) => {
      const t = text(p, i + 1);
      const tag = batchPartTag("summary", i + 1);
      return t === undefined ? "" : `<${tag}>${t}</${tag}>`;
    })
    .join("\n");
}
