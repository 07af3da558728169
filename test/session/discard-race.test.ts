// A failed import removes the session it created (discard.ts) while another writer may have
// opened it (issue 33): the removal holds the session's write lock (the log's lock files, the
// PostgreSQL row) and removes only a session that holds nothing then; a writer that opened the
// session before it was removed is refused with a clear error, never told its append succeeded
// into a session that no longer exists. On both backends.
import { afterAll, describe, expect, it } from "vitest";
import { discardIfEmpty } from "../../src/session/discard.ts";
import { openSession } from "../../src/session/open.ts";
import { backends, removeFresh } from "./backends.ts";
import { questionCounts, turn } from "./conversation.ts";

afterAll(removeFresh);

const orphan = JSON.stringify({ role: "tool", tool_call_id: "call-nowhere", content: "x" });

describe.each(backends)("a failed import and a concurrent writer: $name", (backend) => {
  it("a writer's append after the import's removal is refused, not acknowledged and lost", async () => {
    const at = backend.fresh();
    const importer = await openSession(at, { format: "openai" });
    const writer = await openSession(at);
    await expect(importer.appendTexts([orphan])).rejects.toThrow(/orphan tool result/);
    expect(await discardIfEmpty(importer)).toBe(true);
    let acknowledged = false;
    try {
      await writer.append(turn("w"));
      acknowledged = true;
    } catch (e) {
      expect((e as Error).message).toMatch(/was removed/);
    }
    await writer.close();
    if (acknowledged) {
      // what the writer was told is durable must be there
      const s = await openSession(at);
      expect(questionCounts(await s.history({ full: true })).get("w")).toBe(1);
      await s.close();
    } else await expect(openSession(at)).rejects.toThrow(/creating a session needs its format/);
  });

  it("a writer's append before the removal keeps the session, whole", async () => {
    const at = backend.fresh();
    const importer = await openSession(at, { format: "openai" });
    const writer = await openSession(at);
    await expect(importer.appendTexts([orphan])).rejects.toThrow(/orphan tool result/);
    await writer.append(turn("w"));
    expect(await discardIfEmpty(importer)).toBe(false);
    await writer.close();
    const s = await openSession(at);
    expect(questionCounts(await s.history({ full: true })).get("w")).toBe(1);
    await s.close();
  });
});
