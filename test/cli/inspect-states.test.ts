// The inspector's message states for what issue 35 names besides the cleared and summarized: a
// provider's own compaction item (kept by law, shown as such, not as a system instruction) and
// a summary aged by an earlier compaction.
import { describe, expect, it } from "vitest";
import { readResponsesItems } from "../../src/adapters/responses.ts";
import { inspect } from "../../src/cli/inspect-data.ts";
import { inspectionPage } from "../../src/cli/inspect-html.ts";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { summaryMessage } from "../../src/model/message.ts";

describe("inspect's message states", () => {
  it("shows a provider's compaction item and an aged summary as such", async () => {
    const read = readResponsesItems([
      { role: "user", content: "Fix the failing tests." },
      { type: "compaction", id: "cmp_1", encrypted_content: "Eq".repeat(200) },
    ] as never);
    const messages = [
      ...read.messages,
      summaryMessage("earlier work, aged once", { aged: 1 }),
      summaryMessage("later work"),
      { role: "user" as const, content: "Go on." },
    ];
    const x = await inspect("t", "responses", messages, parseConfig({ tokenizer: "chars", retention_window: 1 }));
    expect(x.messages.map((m) => m.state)).toEqual(["user", "provider", "aged", "summary", "user"]);
    const page = inspectionPage(x);
    expect(page).toContain("the provider&#39;s own compaction item");
    expect(page).toContain("summary aged");
  });
});
