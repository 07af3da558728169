// `safecut inspect` in a real browser: the page of a conversation file and of a session log is
// opened by headless Chromium (Debian's `chromium`, installed by scripts/setup-chromium.sh, which
// `npm test` and .ci/run run), which renders it to a DOM and a screenshot. The test reads the
// rendered text, checks that the page logged nothing to the console (no script error, no blocked
// request: the page's Content-Security-Policy refuses any network or external asset), and that a
// conversation's own text is shown, never run.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/cli/inspect-html.ts";
import { openSession } from "../../src/session/open.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const CHROMIUM = "/usr/bin/chromium";

/** What Chromium made of a page: its rendered DOM, its console lines, and a screenshot's size. */
function render(page: string, dir: string): { dom: string; console: string[]; screenshot: number } {
  expect(existsSync(CHROMIUM), `${CHROMIUM} missing: run bash scripts/setup-chromium.sh`).toBe(true);
  const flags = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    `--user-data-dir=${join(dir, "chromium")}`,
    "--enable-logging=stderr",
    "--log-level=0",
    "--window-size=1200,1400",
  ];
  const url = `file://${page}`;
  const dom = spawnSync(CHROMIUM, [...flags, "--dump-dom", url], { encoding: "utf8", timeout: 60_000 });
  expect(dom.status, dom.stderr).toBe(0);
  const png = join(dir, "page.png");
  const shot = spawnSync(CHROMIUM, [...flags, `--screenshot=${png}`, url], { encoding: "utf8", timeout: 60_000 });
  expect(shot.status, shot.stderr).toBe(0);
  const consoleLines = `${dom.stderr}\n${shot.stderr}`.split("\n").filter((l) => l.includes(":CONSOLE"));
  return { dom: dom.stdout, console: consoleLines, screenshot: statSync(png).size };
}

/** The page's visible text: tags dropped, entities of the escaper turned back. */
const textOf = (dom: string) =>
  dom
    .replace(/<style[\s\S]*?<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");

describe("safecut inspect", { timeout: 180_000 }, () => {
  it("a conversation file: the strip, the dry run and the laws, the chart, rendered without a console message", async () => {
    const dir = tempDir();
    copyFileSync(join(ROOT, "examples/session.openai.json"), join(dir, "session.openai.json"));
    const r = await runInProcess(["inspect", "session.openai.json", "--token-threshold", "8000"], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("safecut: wrote session.openai.json.html\n");
    const page = join(dir, "session.openai.json.html");
    // self-contained: nothing fetched from anywhere
    expect(readFileSync(page, "utf8")).not.toMatch(/\b(src|href)=|url\(|@import|https?:\/\//);
    const { dom, console, screenshot } = render(page, dir);
    expect(console).toEqual([]);
    expect(screenshot).toBeGreaterThan(10_000);
    const text = textOf(dom);
    expect(text).toContain("openai conversation, 161 messages");
    expect(text).toMatch(/due now: yes \([\d,]+ tokens, token trigger at 8,000\)/);
    expect(text).toContain("clearing: would clear 76 tool results");
    expect(text).toContain("holds L5 tool-call coherence (no orphan tool result)");
    expect(text).toContain("user message (never changed): 20");
    expect(text).toContain("in the retention window (never touched): 6");
    expect(text).toMatch(/Largest context sent: [\d,]+ tokens over 60 model calls/);
    // one strip cell per message
    expect(dom.match(/class="cell"/g)?.length).toBe(161);
  });

  it("a session log: its context and the timeline of its compactions", async () => {
    const dir = tempDir();
    const log = join(dir, "agent.jsonl");
    const conversation = JSON.parse(readFileSync(join(ROOT, "examples/session.openai.json"), "utf8")) as {
      messages: unknown[];
    };
    const s = await openSession(log, { format: "openai" });
    await s.append(conversation.messages as never[]);
    const report = await s.compact({ token_threshold: 8000, strategy: "summarize", tokenizer: "chars" });
    expect(report.stretches.length).toBeGreaterThan(0);
    const compactions = (await s.compactions()).length;
    await s.close();
    const r = await runInProcess(["inspect", "agent.jsonl", "-o", "page.html"], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const { dom, console } = render(join(dir, "page.html"), dir);
    expect(console).toEqual([]);
    const text = textOf(dom);
    expect(text).toContain("openai session conversation");
    expect(text).toContain(`${compactions} compactions freed`);
    expect(text).toMatch(/summary written by an earlier compaction: [1-9]/);
  });

  it("shows a conversation's markup as text and never runs it", async () => {
    const dir = tempDir();
    const hostile = "<script>console.error('ran')</script><img src=x onerror=\"console.error('img')\">";
    const conv = [
      { role: "user", content: hostile },
      { role: "assistant", content: "ok" },
    ];
    const file = join(dir, "hostile.json");
    writeFileSync(file, JSON.stringify(conv));
    const r = await runInProcess(["inspect", "hostile.json", "-o", "-"], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(escapeHtml(hostile));
    writeFileSync(join(dir, "h.html"), r.stdout);
    const { dom, console } = render(join(dir, "h.html"), dir);
    expect(console).toEqual([]);
    expect(dom).not.toMatch(/<script|<img/);
    expect(textOf(dom)).toContain(hostile);
  });

  it("the console check has teeth: a page with a script error is seen", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.html"), "<html><body><script>undefinedFunction()</script></body></html>");
    expect(render(join(dir, "bad.html"), dir).console.join("\n")).toContain("undefinedFunction is not defined");
  });

  it("names a file it cannot read", async () => {
    const r = await runInProcess(["inspect", "missing.json"], { cwd: tempDir() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot read missing.json");
  });
});
