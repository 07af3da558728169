// The human-readable report printed on stderr.
import { countOf as count } from "../engine/run/plural.ts";
import type { CompactionReport, PlannedRun, StepTrigger } from "../engine/run/report.ts";
import { failureLine } from "../model/call-failure.ts";
// types only: the catalogue itself is never loaded by the CLI's start-up
import type { LimitSetting, ModelLimitsReport } from "../model/model-limits.ts";

const WHOSE: Record<LimitSetting, string> = {
  context_window: "the agent's model",
  summarizer_window: "the summarizer's model",
  summarizer_output_cap: "the summarizer's model",
};

/**
 * The model limits the run used and where each came from, in one line ("model limits:
 * context_window 128000 (catalogue: gpt-4o, the agent's model), ..."); none when no limit was
 * known (an unknown model and no setting: nothing was used).
 */
export function limitsLine(limits: ModelLimitsReport): string | undefined {
  const keys = ["context_window", "summarizer_window", "summarizer_output_cap"] as const;
  if (keys.every((k) => limits[k].source === "unset")) return undefined;
  const each = keys.map((k) => {
    const l = limits[k];
    if (l.source === "setting") return `${k} ${l.value} (setting)`;
    if (l.source === "catalogue") {
      const as = l.entry === l.model.toLowerCase() ? "" : ` as ${l.entry}`;
      return `${k} ${l.value} (catalogue: ${l.model}${as}, ${WHOSE[k]})`;
    }
    return `${k} unset (${l.why})`;
  });
  const reserve =
    limits.reserveScaled === undefined
      ? ""
      : `; reserve_tokens ${limits.reserveScaled.to} (a quarter of the agent's model's window, which ${limits.reserveScaled.from} does not fit)`;
  return `model limits: ${each.join(", ")}${reserve}`;
}

/** Renders a report as a few lines of text. */
export function reportText(r: CompactionReport, inputName: string): string {
  const lines: string[] = [];
  const head = r.outcome === "dry-run" ? "dry run" : r.outcome;
  // null totals: a run given reported usage that was not due counted no message the report covers
  const tokens =
    r.tokensBefore === null || r.tokensAfter === null
      ? "tokens not counted (reported usage)"
      : `${r.tokensBefore} -> ${count(r.tokensAfter, "token")}`;
  lines.push(
    `safecut: ${inputName}: ${head}: ${r.messagesBefore} -> ${count(r.messagesAfter, "message")}, ${tokens} (${r.tokenizer}), ${count(r.stretches.length, "stretch", "stretches")} replaced by ${r.summarizer} summaries`,
  );
  lines.push(`  ${r.reason}`);
  // what failed and what the user can do, in one line, right under the reason
  if (r.failure !== undefined) lines.push(`  ${failureLine(r.failure)}`);
  const b = r.bytes;
  // the byte budget's line, when it made the run due or the request is over it
  if (b !== undefined && (b.dueByBytes || b.before > b.maxRequestBytes || b.after > b.maxRequestBytes))
    lines.push(
      `  ${b.dueByBytes ? "the request's bytes made the run due" : "the request's bytes are over max_request_bytes"}: ${b.before} -> ${count(b.after, "byte")} (max_request_bytes ${b.maxRequestBytes})${b.floor === undefined ? "" : `; ${b.floor.total} of them no law lets compaction shrink`}`,
    );
  const left = r.remaining;
  // a run still due counted its totals (remaining is set only then)
  if (left !== undefined && r.tokensAfter !== null) {
    // with reported usage the trigger judged the report, not the counted total: say both, each for what it is
    const judged =
      r.usage === undefined
        ? `still above the trigger; of the ${count(r.tokensAfter, "token")} left`
        : `still above the trigger at ${count(r.usage.judgedTokensAfter, "token")} (reported usage); of the ${count(r.tokensAfter, "token")} counted in the messages left`;
    lines.push(
      `  ${judged}, ${left.userSystem} are in user/system messages, ${left.summaries} in summaries, ${left.retentionWindow} in the retention window, ${left.other} in other messages no stretch could take`,
    );
  }
  const u = r.usage;
  if (u !== undefined) {
    lines.push(
      `  the trigger judged the reported usage (${count(u.reportedTokens, "token")} reported): ${u.judgedTokensBefore} -> ${u.judgedTokensAfter}${u.dropped ? " (the report was dropped after a step: the rest counted)" : ""}`,
    );
  }
  const k = r.clearing;
  if (k !== undefined) {
    // the clearing tier's own line: what it cleared (the caller's positions, each once: an
    // Anthropic user message holds several results), or why nothing
    const byMessage = new Map<number, { results: number; calls: number }>();
    for (const c of k.records) {
      const m = byMessage.get(c.input.first) ?? { results: 0, calls: 0 };
      m.results++;
      if (c.arguments !== undefined) m.calls++;
      byMessage.set(c.input.first, m);
    }
    const listed = [...byMessage];
    const at = listed.slice(0, 10).map(([first, m]) => {
      const calls =
        m.calls === 0 ? "" : m.results === 1 ? "and its call" : m.calls === 1 ? "and 1 call" : `and ${m.calls} calls`;
      const what = [m.results === 1 ? "" : `${m.results} results`, calls].filter((x) => x !== "").join(" ");
      return `${first}${what === "" ? "" : ` (${what})`}`;
    });
    const more = listed.length > 10 ? `, ... and ${listed.length - 10} more` : "";
    lines.push(`  clearing: ${k.reason}${at.length > 0 ? `: messages ${at.join(", ")}${more}` : ""}`);
  }
  if (r.plan !== undefined) lines.push(...planLines(r.plan));
  for (const s of r.stretches.slice(0, 10)) {
    lines.push(
      `  ${s.aged === true ? "aged the summary of messages" : "replaced messages"} ${s.input.first}..${s.input.last} (${count(s.replacedTokens, "token")}) by a ${s.summaryTokens}-token summary, ${whyStep(s.trigger)}${s.attempts > 1 ? ` (after ${s.attempts} attempts)` : ""}${s.decision === "rebase" ? " (rebased over appends)" : ""}`,
    );
  }
  if (r.stretches.length > 10) lines.push(`  ... and ${r.stretches.length - 10} more`);
  for (const k of r.skipped.slice(0, 5))
    lines.push(`  left messages ${k.input.first}..${k.input.last} unchanged: ${k.reason}`);
  if (r.skipped.length > 5) lines.push(`  ... and ${r.skipped.length - 5} more left unchanged`);
  const limits = limitsLine(r.modelLimits);
  if (limits !== undefined) lines.push(`  ${limits}`);
  if (r.laws.length > 0) {
    lines.push(`  laws: ${r.laws.map((l) => `${l.law} ${l.ok ? "ok" : "FAILED"}`).join(", ")}`);
    for (const l of r.laws) if (!l.ok) lines.push(`  ${l.law} ${l.title}: FAILED: ${l.detail}`);
    // the pins (setting pin): what they named, kept verbatim (L15's detail)
    const pins = r.laws.find((l) => l.law === "L15");
    if (pins?.ok === true) lines.push(`  pinned: ${pins.detail}`);
  }
  return `${lines.join("\n")}\n`;
}

// why a step was (or would be) taken, in the text: "due by <trigger>", or "to target" under every trigger
function whyStep(t: StepTrigger): string {
  return t === "to target" ? t : `due by ${t}`;
}

/** A dry run's whole plan, for people: every call with its stretches and tokens, then what it would leave. */
function planLines(p: PlannedRun): string[] {
  const range = (k: number) => {
    const x = p.stretches[k];
    return `${x.input.first}..${x.input.last}${x.aged === true ? " (aged summary)" : ""}`;
  };
  const lines = [
    `  plan: ${count(p.stretches.length, "stretch", "stretches")} in ${count(p.calls.length, "call")} to ${p.model} (${p.summarizer}), ${whyStep(p.trigger)} at ${p.tokens} tokens, target ${p.target}`,
  ];
  p.calls.forEach((c, i) => {
    const shown = c.stretches.slice(0, 8).map(range).join(", ");
    const more = c.stretches.length > 8 ? `, ... and ${c.stretches.length - 8} more` : "";
    lines.push(`    call ${i + 1}: ${c.inputTokens} tokens in, up to ${c.outputTokens} out: messages ${shown}${more}`);
  });
  lines.push(
    `  expected after: about ${p.expectedTokensAfter} tokens${p.stillDueBy === "none" ? "" : `: would end still due (by ${p.stillDueBy})`}`,
  );
  return lines;
}
