// The session log's format version. fixtures/v1-session.jsonl is a log written by the safecut
// whose log format was 1 (items, a clearing run, a restore, a summarizing run, an item after
// them), with what that safecut read from it: fixtures/v1-session.context.jsonl (its context) and
// fixtures/v1-session.read.json (its version, compaction and clearing records). This safecut
// reads it as that one did and writes nothing on open; its first write to it starts with a format
// line raising the log's version. A log of a version newer than this safecut reads is refused
// naming the line, whether the header or a format line says so.
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/engine/boundary/config-rules.ts";
import { charCounter } from "../../src/model/tokens.ts";
import { BackgroundSession, sessionDue } from "../../src/session/background-session.ts";
import { LOG_VERSION } from "../../src/session/log-lines.ts";
import { openSession } from "../../src/session/open.ts";
import { slowSummarizer } from "../support/slow-summarizer.ts";
import { freshDir, removeFresh } from "./backends.ts";
import { BACKGROUND_CONFIG, questionCounts, SMALL_CONFIG, turn } from "./conversation.ts";
import { refused } from "./refused.ts";
import { sessionLawProblems } from "./session-laws.ts";

afterAll(removeFresh);

const fixture = (name: string) => join(import.meta.dirname, "fixtures", name);

/** A copy of the version-1 fixture log in a fresh directory. */
function v1Log(): string {
  const at = join(freshDir(), "v1-session.jsonl");
  copyFileSync(fixture("v1-session.jsonl"), at);
  return at;
}

describe("session log format version", () => {
  it("creates a log at this safecut's version", async () => {
    const at = join(freshDir(), "new.jsonl");
    await (await openSession(at, { format: "openai" })).close();
    expect(JSON.parse(readFileSync(at, "utf8").split("\n")[0])).toMatchObject({ "safecut-session": LOG_VERSION });
    expect(LOG_VERSION).toBe(5);
  });

  it("reads a version-1 log as the safecut that wrote it did, and opening and reading change no byte", async () => {
    const at = v1Log();
    const bytes = readFileSync(at);
    expect(bytes.toString("utf8").startsWith('{"safecut-session":1,')).toBe(true);
    const read = JSON.parse(readFileSync(fixture("v1-session.read.json"), "utf8"));
    const s = await openSession(at);
    expect(await s.contextText()).toBe(readFileSync(fixture("v1-session.context.jsonl"), "utf8"));
    expect(await s.version()).toBe(read.version);
    expect(await s.compactions()).toEqual(read.compactions);
    expect(await s.clearings()).toEqual(read.clearings);
    expect((await s.compactions()).length).toBeGreaterThan(0);
    expect((await s.clearings()).map((r) => ("results" in r ? "clearing" : "restore"))).toEqual([
      "clearing",
      "restore",
    ]);
    const items = bytes
      .toString("utf8")
      .split("\n")
      .filter((l) => l.includes('"t":"item"'));
    expect((await s.history({ full: true })).split("\n").filter((l) => l !== "")).toHaveLength(items.length);
    expect(await sessionLawProblems(s)).toEqual([]);
    await s.close();
    expect(readFileSync(at).equals(bytes)).toBe(true);
  });

  it("raises a version-1 log's version with a format line at the first write, once, keeping every byte before it", async () => {
    const at = v1Log();
    const bytes = readFileSync(at);
    const s = await openSession(at);
    const version = await s.version();
    await s.append(turn("w1"));
    const after = readFileSync(at);
    expect(after.subarray(0, bytes.length).equals(bytes)).toBe(true);
    const added = after.subarray(bytes.length).toString("utf8").split("\n");
    expect(JSON.parse(added[0])).toEqual({ seq: 0, t: "format", version: LOG_VERSION });
    expect(added.slice(1).filter((l) => l !== "")).toHaveLength(4);
    await s.append(turn("w2"));
    const formatLines = readFileSync(at, "utf8")
      .split("\n")
      .filter((l) => l.includes('"t":"format"'));
    expect(formatLines).toHaveLength(1);
    // a new process reads the upgraded log: the old entries as before, the new ones after them
    const again = await openSession(at);
    expect(await again.version()).toBe(version + 8);
    const counts = questionCounts(await again.history({ full: true }));
    expect(counts.get("w1")).toBe(1);
    expect(counts.get("w2")).toBe(1);
    expect((await again.compactions()).length).toBe((await s.compactions()).length);
    expect(await sessionLawProblems(again)).toEqual([]);
    await s.close();
    await again.close();
  });

  it("refuses a log newer than this safecut reads, by its header or by a format line, naming the line", async () => {
    const newer = v1Log();
    writeFileSync(
      newer,
      readFileSync(newer, "utf8").replace('"safecut-session":1,', `"safecut-session":${LOG_VERSION + 1},`),
    );
    await refused(
      newer,
      new RegExp(
        `line 1: the log has format version ${LOG_VERSION + 1}, newer than this safecut reads \\(${LOG_VERSION}\\)`,
      ),
    );
    const raised = v1Log();
    const lines = readFileSync(raised, "utf8").split("\n");
    const n = lines.length; // the line after the last one, once the empty tail is replaced
    lines[n - 1] = `${JSON.stringify({ t: "format", version: LOG_VERSION + 1 })}\n`;
    writeFileSync(raised, lines.join("\n"));
    await refused(
      raised,
      new RegExp(`line ${n}: the log has format version ${LOG_VERSION + 1}, newer than this safecut reads`),
    );
  });

  it("refuses an unshrinkable record in the part of a log at version 1, naming its line", async () => {
    const at = v1Log();
    const s = await openSession(at);
    const seq = (await s.version()) + 1;
    await s.close();
    const items = readFileSync(at, "utf8")
      .split("\n")
      .filter((l) => l.includes('"t":"item"')).length;
    const record = { items, stretches: [{ start: 1, end: 2 }], committedVersion: seq, time: "t" };
    const line = `${JSON.stringify({ seq, t: "unshrinkable", ...record })}\n`;
    const n = readFileSync(at, "utf8").split("\n").length;
    appendFileSync(at, line);
    await refused(at, new RegExp(`line ${n}: an unshrinkable record in a log at format version 1 \\(from 2 on\\)`));
    // after a format line raising the log to 2, the same record is read
    const upgraded = v1Log();
    appendFileSync(upgraded, `${JSON.stringify({ t: "format", version: 2 })}\n${line}`);
    const read = await openSession(upgraded);
    expect(await read.version()).toBe(seq);
    await read.close();
  });

  it("reads a compaction record's memory candidates back, and refuses one out of its bounds naming its line", async () => {
    const at = join(freshDir(), "memory.jsonl");
    const s = await openSession(at, { format: "openai" });
    for (let i = 0; i < 12; i++) {
      const [question, ...rest] = turn(`mc${i}`);
      await s.append([{ ...question, content: `${question.content}. Never delete dir${i}.` }, ...rest]);
    }
    await s.compact({ ...SMALL_CONFIG, memory_candidates: 2 });
    const stored = (await s.compactions()).flatMap((r) => r.memoryCandidates ?? []);
    expect(stored.length).toBeGreaterThan(0);
    await s.close();
    const lines = readFileSync(at, "utf8").split("\n");
    const n = lines.findIndex((l) => l.includes('"memoryCandidates"'));
    expect(n).toBeGreaterThan(0);
    lines[n] = lines[n].replace(/"confidence":[0-9.]+/, '"confidence":2');
    writeFileSync(at, lines.join("\n"));
    await refused(at, new RegExp(`line ${n + 1}: field "memoryCandidates": confidence 2 is not in \\[0, 1\\]`));
  });

  it("writes a background run as one run line: read as its records, set aside whole when torn, refused before version 5", async () => {
    const at = join(freshDir(), "run.jsonl");
    const s = await openSession(at, { format: "openai" });
    const soft = parseConfig({ ...BACKGROUND_CONFIG, token_threshold: 1200, soft_token_threshold: null });
    for (let k = 0; (await sessionDue(s, soft, charCounter())) === "none"; k++) await s.append(turn(`r${k}`));
    const items = await s.version();
    const bg = new BackgroundSession(s, BACKGROUND_CONFIG, { summarizer: slowSummarizer(1) });
    expect((await bg.step([])).started).toBe(true);
    await bg.settle();
    const records = [...(await s.compactions()), ...(await s.clearings())];
    await s.close();
    // a clearing and at least one splice, on one line, numbered after the items
    expect(records.length).toBeGreaterThan(1);
    const lines = readFileSync(at, "utf8").split("\n");
    const runs = lines.filter((l) => l.includes('"t":"run"'));
    expect(runs.length).toBe(1);
    expect(lines.filter((l) => /"t":"(compaction|clearing)"/.test(l) && !l.includes('"t":"run"')).length).toBe(0);
    const run = JSON.parse(runs[0]) as { seq: number; entries: { committedVersion: number }[] };
    expect(run.seq).toBe(items + 1);
    expect(run.entries.map((e) => e.committedVersion)).toEqual(records.map((_, k) => items + 1 + k));
    const read = await openSession(at);
    expect(await read.version()).toBe(items + records.length);
    expect(await sessionLawProblems(read)).toEqual([]);
    await read.close();
    // torn by a crash mid-write: none of the run is read, the next write sets the line aside
    const torn = join(freshDir(), "torn.jsonl");
    const text = readFileSync(at, "utf8");
    writeFileSync(torn, text.slice(0, text.indexOf('"t":"run"') + 40));
    const warnings: string[] = [];
    const t = await openSession(torn, { onWarning: (w) => warnings.push(w) });
    expect(warnings.join("\n")).toMatch(/incomplete last line/);
    expect(await t.version()).toBe(items);
    expect((await t.compactions()).length + (await t.clearings()).length).toBe(0);
    await t.append(turn("after"));
    await t.close();
    const again = await openSession(torn);
    expect(await again.version()).toBe(items + 4);
    expect(await sessionLawProblems(again)).toEqual([]);
    await again.close();
    // a log at version 4 holds no run line
    const old = join(freshDir(), "old.jsonl");
    writeFileSync(old, text.replace(`"safecut-session":${LOG_VERSION}`, '"safecut-session":4'));
    await refused(old, new RegExp(`line ${items + 2}: a run line in a log at format version 4 \\(from 5 on\\)`));
  });

  it("refuses a format line that does not raise the version, naming it", async () => {
    const at = v1Log();
    const lines = readFileSync(at, "utf8").split("\n");
    lines.splice(3, 0, JSON.stringify({ t: "format", version: 1 }));
    writeFileSync(at, lines.join("\n"));
    await refused(at, /line 4: a format line for version 1 in a log at version 1/);
  });
});
