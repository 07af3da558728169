// The message roles the kernel reasons about. `summary` marks a message produced by an
// earlier compaction: it may be summarized again (rolling summary), unlike user/system.
// `compaction` marks a provider's own server-side compaction item (Anthropic's compaction block,
// the Responses API's compaction item): opaque to safecut, it is a boundary like a user message,
// never inside a stretch, never cleared, kept where it stands and as it is.

/** A message's role as the kernel sees it. */
export type Role = "system" | "user" | "assistant" | "tool" | "summary" | "compaction";
