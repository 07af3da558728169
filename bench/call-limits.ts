// Does every summarizer request fit its model? The README's provider examples and a long
// generated session run through the CLI (in process) against loopback servers that enforce the
// model's limits with its provider's real error bodies (test/support/model-servers.ts): per
// scenario, the requests sent, the largest max_tokens asked, the largest input (as the server
// counts it), how many the server refused, and the run's outcome.
//   npx tsx bench/call-limits.ts [--no-limits]
// --no-limits leaves summarizer_window and summarizer_output_cap unset (the catalogue's defaults).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeOpenAIMessages } from "../src/adapters/openai.ts";
import { runInProcess, tempDir } from "../test/support/cli-run.ts";
import {
  CLAUDE_HAIKU_4_5,
  GPT_4O_MINI,
  LLAMA3_8K,
  limitFlags,
  type ModelLimits,
  startModelServer,
} from "../test/support/model-servers.ts";
import { codingSession } from "./loop/sessions.ts";

/** One run: a conversation file, the README's flags for it, the model's server. */
interface Scenario {
  readonly name: string;
  readonly file: string;
  readonly flags: readonly string[];
  readonly limits: ModelLimits;
}

const dir = tempDir();
const examples = join(import.meta.dirname, "../examples");
// a long coding session (400 messages, about 240k tokens) in OpenAI's format, gpt-4o-mini's
const long = join(dir, "long-session.json");
writeFileSync(
  long,
  JSON.stringify({ model: "gpt-4o-mini", messages: writeOpenAIMessages(codingSession(400).messages) }, null, 2),
);

const openaiExample = join(examples, "session.openai.json");
const anthropicExample = join(examples, "session.anthropic.jsonl");
const SCENARIOS: readonly Scenario[] = [
  {
    name: "README OpenAI example (gpt-4o-mini)",
    file: openaiExample,
    flags: ["--provider", "openai", "--token-threshold", "8000"],
    limits: GPT_4O_MINI,
  },
  {
    name: "README Anthropic example (claude-haiku-4-5)",
    file: anthropicExample,
    flags: ["--provider", "anthropic", "--model", "claude-haiku-4-5", "--token-threshold", "8000"],
    limits: CLAUDE_HAIKU_4_5,
  },
  {
    name: "README llama3 example (llama.cpp, 8k context)",
    file: openaiExample,
    flags: ["--provider", "openai", "--model", "llama3", "--token-threshold", "8000"],
    limits: LLAMA3_8K,
  },
  {
    name: "long session at 30000 (gpt-4o-mini)",
    file: long,
    flags: ["--provider", "openai", "--token-threshold", "30000"],
    limits: GPT_4O_MINI,
  },
  {
    name: "long session at 30000 (claude-haiku-4-5)",
    file: long,
    flags: ["--provider", "anthropic", "--model", "claude-haiku-4-5", "--token-threshold", "30000"],
    limits: CLAUDE_HAIKU_4_5,
  },
  {
    name: "long session at 30000 (llama3, 8k context)",
    file: long,
    flags: ["--provider", "openai", "--model", "llama3", "--token-threshold", "30000"],
    limits: LLAMA3_8K,
  },
];

const withLimits = !process.argv.includes("--no-limits");
console.log(
  `| scenario | requests | refused | largest max_tokens | largest input | exit | tokens before -> after | reason |`,
);
console.log(`|---|---|---|---|---|---|---|---|`);
const strategies = [[], ["--strategy", "summarize"]] as const;
for (const s of SCENARIOS) for (const strategy of strategies) await run(s, strategy);

/** Runs one scenario under one strategy against its model's server and prints its row. */
async function run(s: Scenario, strategy: readonly string[]): Promise<void> {
  const server = await startModelServer(s.limits);
  const report = join(dir, "report.json");
  const r = await runInProcess(
    [
      "compact",
      s.file,
      ...s.flags,
      ...strategy,
      "--base-url",
      server.url,
      ...(withLimits ? limitFlags(s.limits) : []),
      "--report",
      report,
      "-o",
      join(dir, "out.json"),
    ],
    { cwd: dir, env: { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test" } },
  );
  await server.close();
  const rep = r.code === 0 || r.code === 3 ? JSON.parse(readFileSync(report, "utf8")) : undefined;
  const refused = server.seen.filter((x) => x.status !== 200).length;
  const maxOut = Math.max(0, ...server.seen.map((x) => x.maxTokens));
  const maxIn = Math.max(0, ...server.seen.map((x) => x.inputTokens));
  const tokens = rep === undefined ? "-" : `${rep.tokensBefore} -> ${rep.tokensAfter}`;
  const reason = rep === undefined ? r.stderr.split("\n")[0] : String(rep.reason).slice(0, 90);
  console.log(
    `| ${s.name}${strategy.length === 0 ? "" : ", --strategy summarize"} | ${server.seen.length} | ${refused} | ${maxOut} | ${maxIn} | ${r.code} | ${tokens} | ${reason} |`,
  );
}
