// The JSONL log's own failure cases: a torn last line, a corrupt line in the middle, a foreign
// file, a newer format, a lock left by a killed process. Each is a clear error naming the line,
// or the documented recovery; opening changes no byte of the file.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { logLockFiles } from "../../src/session/lock-files.ts";
import { LOG_VERSION } from "../../src/session/log-lines.ts";
import { openSession } from "../../src/session/open.ts";
import { logBackend, removeFresh } from "./backends.ts";
import { questionCounts, turn } from "./conversation.ts";
import { refused } from "./refused.ts";
import { sessionLawProblems } from "./session-laws.ts";

afterAll(removeFresh);

async function sessionWithTurns(n: number): Promise<string> {
  const at = logBackend.fresh();
  const s = await openSession(at, { format: "openai" });
  for (let i = 0; i < n; i++) await s.append(turn(`t${i}`));
  await s.close();
  return at;
}

describe("session log recovery", () => {
  it("sets a torn last line aside with a warning on open, never merges it, and the next write marks it", async () => {
    const at = await sessionWithTurns(2);
    appendFileSync(at, '{"seq":9,"t":"item","item":{"role":"user","content":"question torn');
    const bytes = readFileSync(at);
    const warnings: string[] = [];
    const s = await openSession(at, { onWarning: (w) => warnings.push(w) });
    expect(readFileSync(at).equals(bytes)).toBe(true);
    expect(warnings.join("\n")).toMatch(/line 10: an incomplete last line \(\d+ bytes\) is not read/);
    expect(await s.version()).toBe(8);
    await s.append(turn("after"));
    const again: string[] = [];
    const reopened = await openSession(at, { onWarning: (w) => again.push(w) });
    expect(again.join("\n")).toMatch(/line 10: a write cut short \(\d+ bytes\) was set aside/);
    const counts = questionCounts(await reopened.history({ full: true }));
    expect(counts.get("after")).toBe(1);
    expect(counts.has("torn")).toBe(false);
    expect(await reopened.version()).toBe(12);
    expect(await sessionLawProblems(reopened)).toEqual([]);
  });

  it("refuses a corrupt line in the middle, naming it", async () => {
    const at = await sessionWithTurns(2);
    const lines = readFileSync(at, "utf8").split("\n");
    lines[3] = lines[3].slice(0, 20);
    writeFileSync(at, lines.join("\n"));
    await refused(at, /session\.jsonl line 4: corrupt line/);
  });

  it("refuses a line whose sequence number is out of order, naming it", async () => {
    const at = await sessionWithTurns(1);
    const lines = readFileSync(at, "utf8").split("\n");
    lines[2] = lines[2].replace('"seq":2', '"seq":7');
    writeFileSync(at, lines.join("\n"));
    await refused(at, /line 3: (sequence number 7, expected 2|corrupt item line)/);
  });

  it("refuses a compaction record that does not fit, naming its line", async () => {
    const record = (seq: number, start: number, end: number, watermark: number) =>
      `${JSON.stringify({ seq, t: "compaction", items: 8, start, end, summary: "s", trigger: "tokens", tokensBefore: 10, tokensAfter: 5, summarizer: "x", plannedVersion: seq - 1, committedVersion: seq, decision: "commit", watermark, time: "t" })}\n`;
    const outside = await sessionWithTurns(2);
    appendFileSync(outside, record(9, 50, 60, 1));
    const s = await openSession(outside);
    await expect(s.context()).rejects.toThrow(
      /session\.jsonl line 10: the stretch 50\.\.60 lies outside the 8-message context/,
    );
    const back = await sessionWithTurns(2);
    appendFileSync(back, record(9, 1, 3, 2) + record(10, 1, 2, 1));
    await refused(back, /session\.jsonl line 11: the watermark moves back from 2 to 1/);
  });

  it("refuses a foreign file and a newer log format on line 1", async () => {
    const foreign = logBackend.fresh();
    writeFileSync(foreign, '{"role":"user","content":"hi"}\n');
    await refused(foreign, /line 1: not a safecut session log/);
    const newer = await sessionWithTurns(1);
    const next = LOG_VERSION + 1;
    writeFileSync(
      newer,
      readFileSync(newer, "utf8").replace(`"safecut-session":${LOG_VERSION}`, `"safecut-session":${next}`),
    );
    await refused(
      newer,
      new RegExp(`line 1: the log has format version ${next}, newer than this safecut reads \\(${LOG_VERSION}\\)`),
    );
  });

  it("with checksums, refuses an item one byte of which changed, naming its line; without, one that no longer parses", async () => {
    const at = logBackend.fresh();
    const s = await openSession(at, { format: "openai", checksums: true });
    await s.append(turn("sum"));
    await s.appendTexts(['{"role":"user",\n"content":"question multi x"}']);
    await s.close();
    const good = readFileSync(at, "utf8");
    const again = await openSession(at);
    expect(await again.version()).toBe(5);
    await again.close();
    // one letter of the tool result (line 4), then one of the multi-line item (line 6)
    writeFileSync(at, good.replace("result sum r", "result sum s"));
    await refused(at, /session\.jsonl line 4: the item's checksum does not match/);
    writeFileSync(at, good.replace("question multi x", "question multi y"));
    await refused(at, /session\.jsonl line 6: the item's checksum does not match/);
    // an item line stripped of its checksum in a log that has them
    writeFileSync(at, good.replace(/"crc":"[0-9a-f]{8}",/, ""));
    await refused(at, /session\.jsonl line 2: an item without its checksum/);
  });

  it("breaks a lock left by a process that no longer exists", async () => {
    const at = await sessionWithTurns(1);
    // Linux pids never exceed 2^22 (the largest pid_max): pid 2^22 + 1 names no process
    writeFileSync(logLockFiles(at, "lock")[0], String(4194305));
    const s = await openSession(at);
    await s.append(turn("later"));
    expect(await s.version()).toBe(8);
  });
});
