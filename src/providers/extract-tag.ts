// LLM answers wrap the summary in <tag>...</tag> (the prompt asks for it); only the inside is
// used, so chatter around it never reaches the conversation.
import { SummarizerError } from "../model/errors.ts";
import { batchPartTag } from "../model/prompt-template.ts";

/** The trimmed text inside the first `<tag>...</tag>` of an answer; throws if absent or empty. */
export function extractTagged(answer: string, tag: string): string {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const a = answer.indexOf(open);
  if (a < 0) throw new SummarizerError(`the answer has no ${open}...${close} block`);
  const b = answer.indexOf(close, a + open.length);
  if (b < 0) throw new SummarizerError(`the answer's ${open} block is not closed by ${close}`);
  const inner = answer.slice(a + open.length, b).trim();
  if (inner === "") throw new SummarizerError(`the answer's ${open} block is empty`);
  return inner;
}

/** The summaries of a batch answer: the k-th inside batchPartTag(tag, k), undefined where absent or empty. */
export function extractEachTagged(answer: string, tag: string, n: number): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let k = 1; k <= n; k++) {
    try {
      out.push(extractTagged(answer, batchPartTag(tag, k)));
    } catch {
      out.push(undefined);
    }
  }
  return out;
}
