// `npx tsx bench/loop/errors-lost.ts <messages> <trigger> [evidence|coding|example <k>]`: the open-error
// facet of bench:retention (retention.ts) for the baseline and `safecut, defaults, ledger` on one
// session at one trigger, and where the open errors the context lost were: an error line or an
// "exit code" line, and whether the ledger still listed the command that printed it. A diagnostic
// for the ledger's error rules (docs/ledger.md); prints, writes nothing.
import type { Message } from "../../src/model/message.ts";
import { baselineCompactor, safecutCompactor } from "./compactors.ts";
import { replay } from "./replay.ts";
import { commandText, errorLines, mean, RetentionMeter } from "./retention.ts";
import { codingSession, evidenceSession, exampleSessions } from "./sessions.ts";
import { startSummarizerServer } from "./summarizer-server.ts";

const [messages, trigger, kind, k] = process.argv.slice(2);
const n = Number(messages ?? 3000);
const t = Number(trigger ?? 60_000);
const session =
  kind === "example" ? exampleSessions()[Number(k ?? 0)] : kind === "coding" ? codingSession(n) : evidenceSession(n);
const server = await startSummarizerServer(1_000);
try {
  for (const c of [
    baselineCompactor(server.baseUrl, t),
    safecutCompactor(server.baseUrl, t, { defaults: true, ledger: true }),
  ]) {
    const meter = new RetentionMeter();
    const open = new Map<string, string[]>();
    const commandOf = new Map<string, string>();
    const lost: Record<string, number> = {};
    const observer = {
      see(m: Message) {
        meter.see(m);
        if (m.role === "assistant")
          for (const call of m.toolCalls) commandOf.set(call.id, commandText(call.name, call.arguments));
        if (m.role === "tool") {
          const command = commandOf.get(m.toolCallId) ?? m.toolCallId;
          const lines = errorLines(m.content);
          if (lines.length > 0) open.set(command, lines);
          else open.delete(command);
        }
      },
      measure(context: readonly Message[], reply: Message) {
        meter.measure(context, reply);
        const text = context
          .map((m) =>
            m.role === "assistant" ? [m.content, ...m.toolCalls.map((x) => x.arguments)].join("\n") : m.content,
          )
          .join("\n");
        const ledger =
          context.find((m) => m.role === "summary" && m.content.startsWith("<evidence_ledger>"))?.content ?? "";
        for (const [command, lines] of open)
          for (const line of lines) {
            if (text.includes(line)) continue;
            const key = `${line.startsWith("exit code") ? "exit-code line" : "error line"}, command ${ledger.includes(`- ${command} →`) ? "in" : "not in"} the ledger`;
            lost[key] = (lost[key] ?? 0) + 1;
          }
      },
    };
    await replay(session, c, server, observer);
    process.stdout.write(
      `${session.name}, ${t / 1000}k, ${c.name}: open errors ${(100 * mean(meter.result.errors)).toFixed(1)}%; lost (line-calls): ${JSON.stringify(lost)}\n`,
    );
  }
} finally {
  await server.close();
}
