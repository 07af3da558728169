// Whole runs: one one-shot compaction (what `safecut compact` does between reading and writing
// the file: compactMessages, law checks included) over a never-compacted history, with the offline
// summarizer and the chars counter, at 10k, 100k and 300k messages. Each size runs in its own
// child process so that its peak RSS is its own. `tsx bench/whole-run.ts` prints the table;
// bench/run.ts calls wholeRunTable for `npm run bench`.
import { spawnSync } from "node:child_process";
import { resourceUsage } from "node:process";
import { fileURLToPath } from "node:url";
import { compactMessages } from "../src/library/compact-messages.ts";
import { charCounter } from "../src/model/tokens.ts";
import { offlineSummarizer } from "../src/providers/offline-summarizer.ts";
import { generateConversation } from "./conversation.ts";

/** The history sizes of the table. */
export const WHOLE_RUN_SIZES: readonly number[] = [10_000, 100_000, 300_000];
/** The trigger of every run (the size the issue's measurements used). */
const TOKEN_THRESHOLD = 50_000;

/** One whole run's figures. */
export interface WholeRun {
  readonly messages: number;
  /** CPU (user + system) of compactMessages alone, seconds */
  readonly cpuS: number;
  /** the child process's peak resident set, MB (generation of the history included) */
  readonly peakRssMb: number;
  /** summarizer steps: stretches replaced plus stretches left unchanged */
  readonly steps: number;
  readonly outcome: string;
  /** null only for a run given a usage report that was not due (none here) */
  readonly tokensBefore: number | null;
  readonly tokensAfter: number | null;
  readonly lawsOk: boolean;
}

/** Runs one whole compaction of an n-message history in this process. */
export async function wholeRun(n: number): Promise<WholeRun> {
  const messages = generateConversation(n, { seed: 11 });
  const counter = charCounter();
  const t0 = process.cpuUsage();
  const r = await compactMessages(
    messages,
    { token_threshold: TOKEN_THRESHOLD, tokenizer: "chars" },
    { summarizer: offlineSummarizer(counter), counter },
  );
  const t = process.cpuUsage(t0);
  return {
    messages: n,
    cpuS: (t.user + t.system) / 1e6,
    peakRssMb: resourceUsage().maxRSS / 1024,
    steps: r.report.stretches.length + r.report.skipped.length,
    outcome: r.report.outcome,
    tokensBefore: r.report.tokensBefore,
    tokensAfter: r.report.tokensAfter,
    lawsOk: r.report.laws.every((l) => l.ok),
  };
}

/** Runs one size in a fresh child process (its own heap and peak RSS). */
function wholeRunInChild(n: number): WholeRun {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ["--import", "tsx", "--max-old-space-size=4096", self, "--one", String(n)], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`whole run of ${n} messages failed (exit ${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as WholeRun;
}

function fmtN(n: number): string {
  return n >= 1_000 ? `${n / 1_000}k` : String(n);
}

/** Measures every size (one child each) and renders the markdown table. */
export function wholeRunTable(
  sizes: readonly number[] = WHOLE_RUN_SIZES,
  log: (line: string) => void = () => {},
): string {
  const runs: WholeRun[] = [];
  for (const n of sizes) {
    log(`whole run: ${fmtN(n)} messages ...`);
    runs.push(wholeRunInChild(n));
  }
  const head = [
    "messages",
    "CPU (s)",
    "peak RSS (MB)",
    "steps",
    "CPU ratio vs previous size",
    "outcome",
    "tokens before -> after",
    "laws",
  ];
  const rows = runs.map((r, i) => [
    fmtN(r.messages),
    r.cpuS.toFixed(1),
    r.peakRssMb.toFixed(0),
    String(r.steps),
    i === 0 ? "—" : `${(r.cpuS / runs[i - 1].cpuS).toFixed(2)}x (${fmtN(r.messages)}/${fmtN(runs[i - 1].messages)})`,
    r.outcome,
    `${r.tokensBefore} -> ${r.tokensAfter}`,
    r.lawsOk ? "all ok" : "FAILED",
  ]);
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The section of `npm run bench`'s results about whole runs (heading, method, table). */
export function wholeRunSection(log: (line: string) => void): string[] {
  return [
    "## Whole runs",
    "",
    `One one-shot compaction (compactMessages: what \`safecut compact\` does between reading and writing the file, law checks`,
    `included) over a never-compacted history, offline summarizer, character heuristic, token_threshold ${TOKEN_THRESHOLD}; each size in`,
    "its own process (peak RSS includes generating the history). Steps = stretches replaced + stretches left unchanged.",
    "A linear run grows ~3x in CPU from 100k to 300k.",
    "",
    wholeRunTable(WHOLE_RUN_SIZES, log),
    "",
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const one = process.argv.indexOf("--one");
  if (one >= 0) process.stdout.write(JSON.stringify(await wholeRun(Number(process.argv[one + 1]))));
  else {
    const sizes = process.argv
      .slice(2)
      .filter((a) => /^\d+$/.test(a))
      .map(Number);
    process.stdout.write(
      `${wholeRunTable(sizes.length > 0 ? sizes : WHOLE_RUN_SIZES, (l) => process.stderr.write(`${l}\n`))}\n`,
    );
  }
}
