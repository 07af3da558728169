// Deterministic generated agent conversations (OpenAI and Anthropic wire shapes) for tests:
// several turns, each with tool calls, long tool outputs, file paths, identifiers, errors.
import type { JsonObject } from "../../src/model/json.ts";

/** Shape of a generated conversation. */
export interface GenOptions {
  readonly turns: number;
  /** tool calls per assistant step */
  readonly callsPerStep?: number;
  /** assistant tool-call steps per turn */
  readonly stepsPerTurn?: number;
  /** lines of output per tool result */
  readonly outputLines?: number;
  readonly seed?: number;
  /** leave the last call unanswered (an ongoing tool call) */
  readonly ongoingAtEnd?: boolean;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** One assistant step of a generated turn: its text, its calls and their results. */
export interface Step {
  text: string;
  calls: { id: string; name: string; args: JsonObject }[];
  results: { id: string; text: string; isError: boolean }[];
}
/** One generated user turn. */
export interface Turn {
  user: string;
  steps: Step[];
  final: string;
}

/** The turns of a generated conversation, shared by every wire shape's generator. */
export function turns(o: GenOptions): Turn[] {
  const r = rng(o.seed ?? 1);
  const tools = ["read_file", "run_tests", "grep", "edit_file"];
  const out: Turn[] = [];
  let id = 0;
  for (let t = 0; t < o.turns; t++) {
    const steps: Step[] = [];
    for (let s = 0; s < (o.stepsPerTurn ?? 2); s++) {
      const calls: Step["calls"] = [];
      const results: Step["results"] = [];
      for (let k = 0; k < (o.callsPerStep ?? 2); k++) {
        const name = tools[Math.floor(r() * tools.length)];
        const cid = `call_${t}_${s}_${k}_${id++}`;
        const path = `src/module${t % 7}/file${s}${k}.ts`;
        calls.push({ id: cid, name, args: { path } });
        const lines: string[] = [];
        for (let l = 0; l < (o.outputLines ?? 12); l++) {
          lines.push(`  ${l + 1}: const value${l} = compute(${Math.floor(r() * 1000)}, "${name}") // line of ${path}`);
        }
        const isError = r() < 0.2;
        if (isError) lines.push(`TypeError: Cannot read properties of undefined (reading 'item${t}')`);
        results.push({ id: cid, text: lines.join("\n"), isError });
      }
      steps.push({
        text: s === 0 ? `Let me look at handleRequest${t} in src/module${t % 7}/index.ts.` : "",
        calls,
        results,
      });
    }
    out.push({
      user: `Turn ${t}: please fix the failing test in src/module${t % 7}/index.ts`,
      steps,
      final: `Fixed parseInput${t}: the bug was an off-by-one in src/module${t % 7}/index.ts.`,
    });
  }
  return out;
}

/** A generated conversation in OpenAI chat shape. */
export function openAIConversation(o: GenOptions): JsonObject[] {
  const msgs: JsonObject[] = [{ role: "system", content: "You are a coding agent. Work carefully." }];
  const ts = turns(o);
  ts.forEach((t, ti) => {
    msgs.push({ role: "user", content: t.user });
    t.steps.forEach((s, si) => {
      msgs.push({
        role: "assistant",
        content: s.text === "" ? null : s.text,
        tool_calls: s.calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: JSON.stringify(c.args) },
        })),
      });
      const last = o.ongoingAtEnd && ti === ts.length - 1 && si === t.steps.length - 1;
      if (last) return;
      for (const res of s.results) msgs.push({ role: "tool", tool_call_id: res.id, content: res.text });
    });
    if (!(o.ongoingAtEnd && ti === ts.length - 1)) msgs.push({ role: "assistant", content: t.final });
  });
  return msgs;
}

/** A generated conversation in Anthropic messages shape ({system, messages}). */
export function anthropicConversation(o: GenOptions): { system: string; messages: JsonObject[] } {
  const msgs: JsonObject[] = [];
  const ts = turns(o);
  ts.forEach((t, ti) => {
    let pendingUser: JsonObject[] = [];
    t.steps.forEach((s, si) => {
      const userBlocks = si === 0 ? [{ type: "text", text: t.user }] : pendingUser;
      msgs.push({ role: "user", content: userBlocks });
      msgs.push({
        role: "assistant",
        content: [
          ...(s.text === "" ? [] : [{ type: "text", text: s.text }]),
          ...s.calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
        ],
      });
      pendingUser = s.results.map((res) => ({
        type: "tool_result",
        tool_use_id: res.id,
        content: res.text,
        ...(res.isError ? { is_error: true } : {}),
      }));
    });
    if (o.ongoingAtEnd && ti === ts.length - 1) return;
    msgs.push({ role: "user", content: pendingUser });
    msgs.push({ role: "assistant", content: [{ type: "text", text: t.final }] });
  });
  return { system: "You are a coding agent. Work carefully.", messages: msgs };
}
