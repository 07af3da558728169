// The message roles the kernel reasons about. `summary` marks a message produced by an
// earlier compaction: it may be summarized again (rolling summary), unlike user/system.

/** A message's role as the kernel sees it. */
export type Role = "system" | "user" | "assistant" | "tool" | "summary";
