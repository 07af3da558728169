// Which verified kernel functions are proof-only models: a `@model` tag in the function's doc
// comment. A model states a property of the engine's loop or discipline (termination, no
// overlap, forward progress, one step end to end) and is proven like a decision, but the engine
// never calls it: the docs say so, the runtime guard generator writes no guard for it, and the
// layering test holds that the kernel gate imports none.

import ts from "typescript";

/** The doc-comment tag that marks a proof-only model. */
export const MODEL_TAG = "model";

/** Whether a kernel function's doc comment carries the `@model` tag. */
export function isProofModel(fd: ts.FunctionDeclaration): boolean {
  return ts.getJSDocTags(fd).some((t) => t.tagName.text === MODEL_TAG);
}

/** A doc comment's text without its `@model` line (the docs say it in words instead). */
export function withoutModelTag(text: string): string {
  return text
    .split("\n")
    .filter((l) => l.trim() !== `@${MODEL_TAG}`)
    .join("\n")
    .trim();
}
