// The sessions the agent-loop replay plays: the repository's example sessions (examples/), read
// by the adapters, and a generated long coding session (seeded): short user turns, assistant
// steps that mostly call one tool whose output is long, and now and then a one-line reply.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readConversationFile } from "../../src/adapters/conversation-file.ts";
import type { Message } from "../../src/model/message.ts";
import { rng } from "../conversation.ts";

/** A session to replay: its name and its messages in order. */
export interface Session {
  readonly name: string;
  readonly messages: readonly Message[];
}

const EXAMPLES = join(import.meta.dirname, "../../examples");

/** The example sessions of examples/ (OpenAI chat JSON, Anthropic JSONL). */
export function exampleSessions(): Session[] {
  return ["session.openai.json", "session.anthropic.jsonl"].map((file) => ({
    name: `examples/${file}`,
    messages: readConversationFile(readFileSync(join(EXAMPLES, file), "utf8")).messages,
  }));
}

const TOOLS = ["read_file", "bash", "grep", "edit_file", "run_tests"] as const;
const ONE_LINERS = ["Hello! 👋", "Done.", "OK, looking.", "Fixed.", "Tests pass now.", "Right."];
const ASKS = ["please fix", "now refactor", "add a test for", "why does this fail in", "rename things in", "check"];

/** Log-uniform between lo and hi. */
function skewed(r: () => number, lo: number, hi: number): number {
  return Math.round(Math.exp(Math.log(lo) + r() * (Math.log(hi) - Math.log(lo))));
}

/** A tool output of about `tokens` tokens: numbered source lines, a few error lines in test runs. */
function toolOutput(r: () => number, tool: string, file: string, tokens: number): string {
  const lines: string[] = [];
  let chars = 0;
  for (let i = 1; chars < tokens * 4; i++) {
    const line =
      tool === "run_tests" && r() < 0.02
        ? `  FAIL ${file} > case ${i}: expected ${Math.floor(r() * 100)} received ${Math.floor(r() * 100)}`
        : `${String(i).padStart(4)}: const v${i} = compute(${Math.floor(r() * 1000)}, "${tool}") // ${file}`;
    lines.push(line);
    chars += line.length + 1;
  }
  return lines.join("\n");
}

/**
 * A generated coding session of exactly `n` messages: a system prompt, then turns of a short user
 * message (a few to ~60 tokens), 1-10 assistant steps of which 85% call one tool (output 200-4000
 * tokens, log-uniform) and the rest reply in one line or a short paragraph; each call is answered
 * right after it.
 */
export function codingSession(n: number, seed = 11): Session {
  const r = rng(seed);
  const out: Message[] = [{ role: "system", content: "You are a coding agent working in a TypeScript repository." }];
  let turn = 0;
  let call = 0;
  while (out.length < n) {
    const file = `src/module${Math.floor(r() * 40)}/file${Math.floor(r() * 20)}.ts`;
    const ask = ASKS[Math.floor(r() * ASKS.length)];
    const detail = r() < 0.3 ? ` The build log says the handler in ${file} returns undefined for empty input.` : "";
    out.push({ role: "user", content: `Turn ${turn++}: ${ask} ${file}.${detail}` });
    const steps = 1 + Math.floor(r() * 10);
    for (let s = 0; s < steps && out.length < n; s++) {
      if (s < steps - 1 && r() < 0.85) {
        const tool = TOOLS[Math.floor(r() * TOOLS.length)];
        const id = `call_${call++}`;
        out.push({
          role: "assistant",
          content: r() < 0.5 ? "" : `Looking at ${file} with ${tool}.`,
          toolCalls: [{ id, name: tool, arguments: JSON.stringify({ path: file }) }],
        });
        if (out.length < n)
          out.push({ role: "tool", toolCallId: id, content: toolOutput(r, tool, file, skewed(r, 200, 4000)) });
      } else {
        const content =
          r() < 0.5
            ? ONE_LINERS[Math.floor(r() * ONE_LINERS.length)]
            : `I changed ${file}: the handler now checks its input before use, and the tests cover the empty case.`;
        out.push({ role: "assistant", content, toolCalls: [] });
      }
    }
  }
  return { name: `generated coding session (${n} messages)`, messages: out.slice(0, n) };
}

const CONSTRAINTS = [
  (m: number) => `Never edit files under src/module${m}/generated.`,
  (m: number) => `Always run npx tsc --noEmit before you say module${m} is done.`,
  () => "Use pnpm not npm for installs.",
  (m: number) => `Do not touch src/module${m}/legacy.ts, another team owns it.`,
  () => "Use vitest instead of jest in new tests.",
  (m: number) => `Never commit to main directly; module${m} changes go on a branch.`,
] as const;
const SHELL = [
  (m: number) => `npx vitest run test/module${m}.test.ts`,
  () => "npx tsc --noEmit -p .",
  () => "npm run lint",
  (m: number) => `git diff --stat src/module${m}`,
] as const;

/** A shell command's output of about `tokens` tokens: log lines, then its errors and exit code when it fails. */
function shellOutput(r: () => number, command: string, tokens: number, fails: boolean): string {
  const lines: string[] = [`$ ${command}`];
  let chars = 0;
  for (let i = 1; chars < tokens * 4; i++) {
    const line = `  log ${i}: checked chunk${Math.floor(r() * 500)} in ${Math.floor(r() * 90)} ms`;
    lines.push(line);
    chars += line.length + 1;
  }
  if (fails) {
    const m = Math.floor(r() * 40);
    lines.push(
      `src/module${m}/file${Math.floor(r() * 20)}.ts:${1 + Math.floor(r() * 300)}:5 - error TS2345: Argument of type 'string' is not assignable to parameter of type 'Handler${m}'.`,
    );
    lines.push("exit code 1");
  } else lines.push("exit code 0");
  return lines.join("\n");
}

/**
 * A generated coding session like codingSession, with the evidence a compaction should keep: user
 * turns that now and then state a constraint ("never …", "always …", "use X not Y"), shell commands
 * from a small set run again and again (failing 40% of the time with a compiler error and exit
 * code 1, else exit code 0), and test runs that pass half the time (else FAIL lines). For the
 * retention measure (retention.ts).
 */
export function evidenceSession(n: number, seed = 17): Session {
  const r = rng(seed);
  const out: Message[] = [{ role: "system", content: "You are a coding agent working in a TypeScript repository." }];
  let turn = 0;
  let call = 0;
  while (out.length < n) {
    const m = Math.floor(r() * 40);
    const file = `src/module${m}/file${Math.floor(r() * 20)}.ts`;
    const ask = ASKS[Math.floor(r() * ASKS.length)];
    const rule = r() < 0.2 ? ` ${CONSTRAINTS[Math.floor(r() * CONSTRAINTS.length)](m)}` : "";
    out.push({ role: "user", content: `Turn ${turn++}: ${ask} ${file}.${rule}` });
    const steps = 1 + Math.floor(r() * 10);
    for (let s = 0; s < steps && out.length < n; s++) {
      if (s < steps - 1 && r() < 0.85) {
        const tool = TOOLS[Math.floor(r() * TOOLS.length)];
        const id = `call_${call++}`;
        const command = SHELL[Math.floor(r() * SHELL.length)](Math.floor(r() * 8));
        const args = tool === "bash" ? { command } : { path: file };
        out.push({
          role: "assistant",
          content: r() < 0.5 ? "" : `Looking at ${file} with ${tool}.`,
          toolCalls: [{ id, name: tool, arguments: JSON.stringify(args) }],
        });
        const tokens = skewed(r, 200, 4000);
        const content =
          tool === "bash"
            ? shellOutput(r, command, tokens, r() < 0.4)
            : tool === "run_tests" && r() < 0.5
              ? toolOutput(r, "read_file", file, tokens).replaceAll("read_file", "run_tests")
              : toolOutput(r, tool, file, tokens);
        if (out.length < n) out.push({ role: "tool", toolCallId: id, content });
      } else {
        const content =
          r() < 0.5
            ? ONE_LINERS[Math.floor(r() * ONE_LINERS.length)]
            : `I changed ${file}: the handler now checks its input before use, and the tests cover the empty case.`;
        out.push({ role: "assistant", content, toolCalls: [] });
      }
    }
  }
  return { name: `generated evidence session (${n} messages)`, messages: out.slice(0, n) };
}
