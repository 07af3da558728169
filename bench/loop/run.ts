// `npm run bench:loop`: the agent-loop replay (replay.ts) of the example sessions and a generated
// long coding session, at triggers of 15k, 30k and 60k tokens, with safecut and the baseline in the
// same run against one loopback summarizer; writes its section into bench/RESULTS.md. `--ci`
// replays one example and a short generated session at 15k only and prints without writing.
// Besides safecut pinned to the summarize strategy, every run replays it without summary aging
// (age_percent 0: the summary share before aging), with every setting at its default, with no
// memory passed between calls (stateless), with keep_recent_tokens 5000, with those two settings on top
// of every default, and at its defaults in background mode (soft_token_threshold); every row is
// billed in dollars with prompt caching (cache-bill.ts), beside the ideal lawful compactor's.
// `--target-percent`, `--floor`, `--age-percent`, `--age-share`, `--age-floor`, `--batch-tokens`,
// `--batch-calls`, `--summary-percent` and `--summary-floor` (each `<n,...>`) add safecut with other
// values of that setting, `--defaults-target-percent <n,...>` safecut at its defaults with other
// targets (exploratory: printed only, with a sweep table of absolute figures); `--set
// <setting=n,...>` (repeatable) adds safecut with several settings changed together (`defaults=1`:
// on top of every default, the strategy too; `stateless=1`: no memory passed between calls);
// `--keep-recent <n,...>` safecut with keep_recent_tokens; `--messages <n>`
// sets the generated session's length and `--summary-rate <r>` the share of an excerpt the
// loopback summarizer's summaries keep.
import { join } from "node:path";
import { writeSection } from "../section-file.ts";
import {
  backgroundCompactor,
  baselineCompactor,
  type Compactor,
  type SafecutVariant,
  safecutCompactor,
  VARIED,
} from "./compactors.ts";
import { type FloorPolicy, floorReplay } from "./lawful-floor.ts";
import { replay } from "./replay.ts";
import { type FloorRow, LOOP_HEADING, type LoopRow, loopSection, sweepLines } from "./section.ts";
import { codingSession, exampleSessions } from "./sessions.ts";
import { startSummarizerServer } from "./summarizer-server.ts";

const ci = process.argv.includes("--ci");
/** The numbers after a flag, comma-separated (none when the flag is absent). */
function listAfter(flag: string): number[] {
  const at = process.argv.indexOf(flag);
  return at < 0 ? [] : process.argv[at + 1].split(",").map(Number);
}
/** Each `--set a=1,b=2`: one variant with those settings (named as in the configuration) changed together. */
function combos(): SafecutVariant[] {
  const out: SafecutVariant[] = [];
  process.argv.forEach((arg, at) => {
    if (arg !== "--set") return;
    const pairs = process.argv[at + 1].split(",").map((pair) => {
      const [setting, value] = pair.split("=");
      if (setting === "defaults" || setting === "stateless") return [setting, value === "1"];
      const varied = VARIED.find(([, , name]) => name === setting);
      if (varied === undefined) throw new Error(`--set: ${setting} is not a setting the replay varies`);
      return [varied[0], Number(value)];
    });
    out.push(Object.fromEntries(pairs));
  });
  return out;
}
const variants: SafecutVariant[] = [
  ...combos(),
  ...listAfter("--target-percent").map((targetPercent) => ({ targetPercent })),
  ...listAfter("--floor").map((minStretchTokens) => ({ minStretchTokens })),
  ...listAfter("--age-percent").map((agePercent) => ({ agePercent })),
  ...listAfter("--age-share").map((ageSharePercent) => ({ ageSharePercent })),
  ...listAfter("--age-floor").map((ageFloorTokens) => ({ ageFloorTokens })),
  ...listAfter("--batch-tokens").map((batchTokens) => ({ batchTokens })),
  ...listAfter("--batch-calls").map((batchCalls) => ({ batchCalls })),
  ...listAfter("--summary-percent").map((summaryPercent) => ({ summaryPercent })),
  ...listAfter("--summary-floor").map((summaryFloorTokens) => ({ summaryFloorTokens })),
  ...listAfter("--keep-recent").map((keepRecentTokens) => ({ keepRecentTokens })),
  ...listAfter("--defaults-target-percent").map((targetPercent) => ({ targetPercent, defaults: true })),
];
/**
 * Replayed in every run: the summary share before aging, safecut as it ships, safecut with no
 * memory passed between calls (only what the messages carry), with keep_recent_tokens, and the
 * two settings each on top of every default.
 */
const ALWAYS: SafecutVariant[] = [
  { agePercent: 0 },
  { defaults: true },
  { stateless: true },
  { keepRecentTokens: 5_000 },
  // the two settings as a user sets them: on top of every default, the strategy too
  { defaults: true, keepRecentTokens: 5_000 },
  { defaults: true, agePercent: 0 },
];
const TRIGGERS = ci ? [15_000] : [15_000, 30_000, 60_000];
const messagesAt = process.argv.indexOf("--messages");
const GENERATED = messagesAt >= 0 ? Number(process.argv[messagesAt + 1]) : ci ? 400 : 3_000;
const SCALE = ci ? 10_000 : 1_000;
const rateAt = process.argv.indexOf("--summary-rate");
const RATE = rateAt >= 0 ? Number(process.argv[rateAt + 1]) : undefined;

const log = (line: string) => process.stderr.write(`${line}\n`);
/** The ideal lawful compactor's policies: summarizing to the floor whenever due, and clearing first at three shares. */
const FLOOR_POLICIES: FloorPolicy[] = [
  { clearing: false },
  ...[0.5, 0.8, 1].map((summarizeFrom) => ({ clearing: true as const, summarizeFrom })),
  // the least the laws allow with what the two settings replayed in every run keep (ALWAYS)
  { clearing: false, keeps: { keepRecentTokens: 5_000 } },
  { clearing: false, keeps: { keepSummaries: true } },
];

async function main(): Promise<void> {
  const server = await startSummarizerServer(SCALE, RATE);
  const sessions = [...exampleSessions().slice(0, ci ? 1 : 2), codingSession(GENERATED)];
  const rows: LoopRow[] = [];
  const floors: FloorRow[] = sessions.flatMap((session) =>
    TRIGGERS.flatMap((trigger) =>
      FLOOR_POLICIES.map((policy) => ({
        session: session.name,
        trigger,
        policy,
        stats: floorReplay(session, trigger, policy),
      })),
    ),
  );
  try {
    for (const session of sessions)
      for (const trigger of TRIGGERS) {
        const compactors: Compactor[] = [
          baselineCompactor(server.baseUrl, trigger),
          safecutCompactor(server.baseUrl, trigger),
          ...[...ALWAYS, ...variants].map((v) => safecutCompactor(server.baseUrl, trigger, v)),
          backgroundCompactor(server.baseUrl, trigger, SCALE),
        ];
        for (const c of compactors) {
          log(`${session.name}, ${trigger} tokens, ${c.name}...`);
          rows.push({ session: session.name, trigger, compactor: c.name, stats: await replay(session, c, server) });
        }
      }
  } finally {
    await server.close();
  }
  const command = `npm run bench:loop -- ${process.argv.slice(2).join(" ")}`.trimEnd().replace(/ --$/, "");
  const lines = loopSection(rows, command, SCALE, floors);
  process.stdout.write(`${lines.join("\n")}\n`);
  if (variants.length > 0)
    process.stdout.write(`\nSweep (all sessions, per trigger):\n\n${sweepLines(rows).join("\n")}\n`);
  // the committed table is the plain comparison at full size; CI-size and exploratory runs only print
  if (!ci && variants.length === 0 && messagesAt < 0 && RATE === undefined)
    writeSection(join(import.meta.dirname, "../RESULTS.md"), LOOP_HEADING, lines);
}

await main();
