// The OpenAI, Anthropic and Responses helpers with a `session` option, on both backends: the
// agent passes the array it holds, the helper appends what the session lacks (once), compacts
// when due and returns the session's context; an array that does not start with the context, a
// session of another format and options a session does not take are refused with nothing
// written; an agent killed mid-run resumes through the helper with its history intact and lawful.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { afterAll, describe, expect, it } from "vitest";
import { compactAnthropicMessages, compactOpenAIMessages } from "../../src/library/compact-wire.ts";
import { compactResponsesItems } from "../../src/library/responses.ts";
import type { Json } from "../../src/model/json.ts";
import { openSession } from "../../src/session/open.ts";
import { backends, removeFresh } from "./backends.ts";
import { questionCounts, SMALL_CONFIG } from "./conversation.ts";
import { HELPER_KINDS, type Held, helperStep, helperTurn, runHelperAgent } from "./helper-turns.ts";
import { sessionLawProblems } from "./session-laws.ts";

afterAll(removeFresh);

const AGENT = resolve(import.meta.dirname, "helper-agent.ts");

describe.each(backends)("the wire helpers with a session: $name", (backend) => {
  it.each(HELPER_KINDS)(
    "%s: each step appends only the new items, compacts when due, returns the context",
    async (kind) => {
      const at = backend.fresh();
      const s = await openSession(at, { format: kind });
      let held: Held = kind === "anthropic" ? { system: "You are terse.", items: [] } : { items: [] };
      let appended = kind === "anthropic" ? 1 : 0;
      for (let i = 0; i < 12; i++) {
        const items = helperTurn(kind, `t${i}`);
        appended += items.length;
        held = await helperStep(kind, s, { ...held, items: [...held.items, ...items] }, SMALL_CONFIG);
        // what the helper returns is the session's context, as a fresh process reads it
        const again = await openSession(at);
        const context = await again.context();
        await again.close();
        expect([...(held.system === undefined ? [] : [{ system: held.system }]), ...held.items]).toEqual(context);
        expect((await s.history({ full: true })).trim().split("\n")).toHaveLength(appended);
      }
      if (kind === "anthropic") expect(held.system).toBe("You are terse.");
      expect((await s.compactions()).length).toBeGreaterThan(0);
      expect(held.items.length).toBeLessThan(appended);
      const counts = questionCounts(await s.history({ full: true }));
      expect(counts.size).toBe(12);
      for (const c of counts.values()) expect(c).toBe(1);
      expect(await sessionLawProblems(s)).toEqual([]);
      await s.close();
    },
  );

  it("an array that does not start with the session's context is refused naming the first differing index; nothing is written", async () => {
    const s = await openSession(backend.fresh(), { format: "openai" });
    const first = [...helperTurn("openai", "a"), ...helperTurn("openai", "b")];
    const sent = (await compactOpenAIMessages(first, SMALL_CONFIG, { session: s })).messages;
    const version = await s.version();
    // the agent changed a message the session holds
    const changed = [
      ...sent.slice(0, 2),
      { role: "user", content: "edited" },
      ...sent.slice(3),
      ...helperTurn("openai", "c"),
    ];
    await expect(compactOpenAIMessages(changed, SMALL_CONFIG, { session: s })).rejects.toThrow(
      /messages\[2\].*differs from item 2 of the session's context/,
    );
    // the agent dropped messages: shorter than the context
    await expect(compactOpenAIMessages(sent.slice(0, 3), SMALL_CONFIG, { session: s })).rejects.toThrow(
      /messages\[3\].*missing: the session's context has \d+ items, the array 3/,
    );
    expect(await s.version()).toBe(version);
    // the same items with their keys in another order are the same items
    const reordered = sent.map((m) => Object.fromEntries(Object.entries(m).reverse()));
    const r = await compactOpenAIMessages([...reordered, ...helperTurn("openai", "c")], SMALL_CONFIG, { session: s });
    expect(r.messages).toEqual(await s.context());
    expect(questionCounts(await s.history({ full: true })).size).toBe(3);
    await s.close();
  });

  it("a session of another format is refused naming both formats, and so are options a session does not take", async () => {
    const s = await openSession(backend.fresh(), { format: "anthropic" });
    await expect(compactOpenAIMessages(helperTurn("openai", "a"), {}, { session: s })).rejects.toThrow(
      /compactOpenAIMessages keeps openai items; the session is of format anthropic/,
    );
    await expect(
      compactResponsesItems(helperTurn("responses", "a") as unknown as ResponseInputItem[], {}, { session: s }),
    ).rejects.toThrow(/compactResponsesItems keeps responses items; the session is of format anthropic/);
    await expect(
      compactAnthropicMessages({ messages: helperTurn("anthropic", "a") }, {}, { session: s, dryRun: true }),
    ).rejects.toThrow(/options\.dryRun.*not with a session/);
    expect(await s.version()).toBe(0);
    await s.close();
  });

  it.each(HELPER_KINDS)(
    "%s: an agent killed mid-run resumes through the helper with its history intact and lawful",
    async (kind) => {
      const at = backend.fresh();
      // the agent in a child process, killed (SIGKILL) once it said `step K`, wherever it is then
      const kill = 4 + Math.floor(Math.random() * 4);
      const child = spawn(process.execPath, ["--import", "tsx", AGENT, at, kind], {
        cwd: resolve(import.meta.dirname, "../.."),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes(`step ${kill}\n`)) child.kill("SIGKILL");
      });
      child.stderr.on("data", (d: Buffer) => {
        err += d.toString();
      });
      const signal = await new Promise((exited) => child.on("exit", (_code, sig) => exited(sig)));
      expect(signal, err).toBe("SIGKILL");
      const said = [...out.matchAll(/^step (\d+)$/gm)].length;
      expect(said).toBeGreaterThan(kill);
      // this process resumes it through the helper, from the session alone
      const s = await openSession(at);
      const resumedAt = await runHelperAgent(kind, s, 20, SMALL_CONFIG);
      // every step the killed agent finished is in the history (its question at least)
      expect(resumedAt).toBeGreaterThanOrEqual(said);
      const counts = questionCounts(await s.history({ full: true }));
      expect(counts.size).toBe(20);
      for (const c of counts.values()) expect(c).toBe(1);
      expect((await s.compactions()).length).toBeGreaterThan(0);
      expect(await sessionLawProblems(s)).toEqual([]);
      const context: Json[] = await s.context();
      expect(JSON.stringify(context)).toContain("answer s19");
      await s.close();
    },
    60_000,
  );
});
