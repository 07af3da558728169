// The context inspector's page: one self-contained HTML document (inline CSS and SVG, no script,
// no network, no external asset) of an Inspection (inspect-data.ts): a strip of the messages by
// role and size, what each message is now, what a compaction would do and why, the context's
// tokens per model call, and a session's timeline of compactions. Input: plain data. Output:
// text. Every text from the conversation is escaped: the page shows it, never runs it.
import type { Inspection, MessageState } from "./inspect-data.ts";

const STATE_COLOR: Readonly<Record<MessageState, string>> = {
  instruction: "#6b7280",
  provider: "#0e7490",
  user: "#2563eb",
  kept: "#f59e0b",
  summary: "#7c3aed",
  aged: "#a78bfa",
  cleared: "#d1d5db",
  window: "#16a34a",
};

const STATE_WORDS: Readonly<Record<MessageState, string>> = {
  instruction: "system instruction (never changed)",
  provider: "the provider's own compaction item (kept byte for byte, never changed)",
  user: "user message (never changed)",
  kept: "agent work, kept so far (may be cleared or summarized)",
  summary: "summary written by an earlier compaction",
  aged: "summary aged (re-summarized shorter) by an earlier compaction",
  cleared: "tool result cleared by an earlier compaction",
  window: "in the retention window (never touched)",
};

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const n = (x: number) => x.toLocaleString("en-US");

function strip(x: Inspection): string {
  const total = Math.max(
    1,
    x.messages.reduce((s, m) => s + m.tokens, 0),
  );
  const cells = x.messages
    .map((m) => {
      const width = Math.max(0.15, (100 * m.tokens) / total).toFixed(3);
      const tip = `#${m.index} ${m.role}, ${n(m.tokens)} tokens: ${STATE_WORDS[m.state]}`;
      return `<span class="cell" style="width:${width}%;background:${STATE_COLOR[m.state]}" title="${escapeHtml(tip)}"></span>`;
    })
    .join("");
  const legend = (Object.keys(STATE_COLOR) as MessageState[])
    .map((s) => {
      const count = x.messages.filter((m) => m.state === s).length;
      return `<li><span class="swatch" style="background:${STATE_COLOR[s]}"></span>${escapeHtml(STATE_WORDS[s])}: <b>${count}</b></li>`;
    })
    .join("");
  return `<div class="strip" role="img" aria-label="the context's messages by size">${cells}</div><ul class="legend">${legend}</ul>`;
}

function dryRun(x: Inspection): string {
  const r = x.dryRun;
  const planned =
    r.plannedStretch === undefined
      ? "no stretch would be summarized"
      : `would summarize messages ${r.plannedStretch.start}..${r.plannedStretch.end - 1} (${n(r.plannedStretch.replacedTokens)} tokens) first, trigger: ${r.plannedStretch.trigger}`;
  const clearing = r.clearing === undefined ? "" : `<li>clearing: ${escapeHtml(r.clearing.reason)}</li>`;
  const laws = r.laws
    .map(
      (l) =>
        `<li class="${l.ok ? "ok" : "bad"}">${l.ok ? "holds" : "FAILS"} <b>${escapeHtml(l.law)}</b> ${escapeHtml(l.title)}</li>`,
    )
    .join("");
  return `<ul>
<li>due now: <b>${r.dueBefore ? "yes" : "no"}</b> (${n(x.totalTokens)} tokens${x.threshold === null ? "" : `, token trigger at ${n(x.threshold)}`})</li>
<li>outcome of a run now: <b>${escapeHtml(r.outcome)}</b>: ${escapeHtml(r.reason)}</li>
<li>${escapeHtml(planned)}</li>${clearing}
</ul>
<h3>Laws checked</h3><ul class="laws">${laws}</ul>`;
}

function chart(values: readonly number[], threshold: number | null): string {
  if (values.length === 0) return "<p>No model call in this context (no assistant message).</p>";
  const w = 800;
  const h = 200;
  const top = Math.max(threshold ?? 0, ...values, 1);
  const x = (k: number) => (values.length === 1 ? w / 2 : (k * w) / (values.length - 1));
  const y = (v: number) => h - (v * h) / top;
  const points = values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return `<svg class="chart" viewBox="-40 -10 ${w + 60} ${h + 30}" role="img" aria-label="context tokens per model call">
${threshold === null ? "" : `<line x1="0" y1="${y(threshold).toFixed(1)}" x2="${w}" y2="${y(threshold).toFixed(1)}" class="trigger"/><text x="${w}" y="${(y(threshold) - 4).toFixed(1)}" text-anchor="end">trigger ${n(threshold)}</text>`}
<polyline points="${points}" class="line"/>
<text x="0" y="${h + 18}">call 1</text><text x="${w}" y="${h + 18}" text-anchor="end">call ${values.length}</text>
</svg><p>Largest context sent: <b>${n(Math.max(...values))}</b> tokens over <b>${values.length}</b> model calls.</p>`;
}

function timeline(x: Inspection): string {
  if (x.timeline === undefined) return "";
  if (x.timeline.length === 0) return "<h2>Compactions</h2><p>This session has no compaction yet.</p>";
  const rows = x.timeline
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.time)}</td><td>${escapeHtml(t.trigger)}</td><td>${n(t.replaced)}</td><td>${n(t.tokensBefore)}</td><td>${n(t.tokensAfter)}</td><td>${escapeHtml(t.summarizer)}</td><td>${n(t.calls)}</td><td>${n(t.inputTokens)}</td><td>${n(t.outputTokens)}</td></tr>`,
    )
    .join("");
  const saved = x.timeline.reduce((s, t) => s + (t.tokensBefore - t.tokensAfter), 0);
  return `<h2>Compactions</h2><p><b>${x.timeline.length}</b> compactions freed <b>${n(saved)}</b> tokens.</p>
<table><thead><tr><th>time</th><th>trigger</th><th>messages replaced</th><th>tokens before</th><th>tokens after</th><th>summarizer</th><th>calls</th><th>input tokens</th><th>output tokens</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function table(x: Inspection): string {
  const rows = x.messages
    .map(
      (m) =>
        `<tr><td>${m.index}</td><td>${m.role}</td><td>${n(m.tokens)}</td><td><span class="swatch" style="background:${STATE_COLOR[m.state]}"></span>${m.state}</td><td class="preview">${escapeHtml(m.preview)}</td></tr>`,
    )
    .join("");
  return `<table><thead><tr><th>#</th><th>role</th><th>tokens</th><th>state</th><th>text</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The page of an inspection. */
export function inspectionPage(x: Inspection): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>safecut inspect: ${escapeHtml(x.title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#111}
h1{font-size:20px}h2{font-size:17px;margin-top:28px}h3{font-size:15px}
.strip{display:flex;height:36px;border:1px solid #999;overflow:hidden}
.cell{display:block;height:100%;border-right:1px solid #fff;box-sizing:border-box}
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:6px 18px}
.swatch{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:middle}
table{border-collapse:collapse;margin-top:8px}td,th{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
.preview{max-width:640px;white-space:pre-wrap;word-break:break-word;font-family:ui-monospace,monospace;font-size:12px}
.laws .ok{color:#166534}.laws .bad{color:#b91c1c;font-weight:bold}
.chart{width:100%;max-width:900px;height:auto}.chart .line{fill:none;stroke:#2563eb;stroke-width:2}.chart .trigger{stroke:#b91c1c;stroke-dasharray:6 4}
.chart text{font-size:12px;fill:#444}
</style></head><body>
<h1>safecut inspect: ${escapeHtml(x.title)}</h1>
<p>${escapeHtml(x.format)} conversation, <b>${n(x.messages.length)}</b> messages, <b>${n(x.totalTokens)}</b> tokens (${escapeHtml(x.tokenizer)} tokenizer).</p>
<h2>The context</h2>${strip(x)}
<h2>What a compaction would do now, and why</h2>${dryRun(x)}
<h2>Context tokens per model call</h2>${chart(x.tokensPerCall, x.threshold)}
${timeline(x)}
<h2>Messages</h2>${table(x)}
</body></html>
`;
}
