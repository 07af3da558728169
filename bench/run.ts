// The benchmark command. `npm run bench` measures planning at 1k, 10k, 100k and 1M messages, the
// cost of one append at each size, a not-due check given reported usage (BPE, 10k and 100k), the
// clearing tier against summarizing (counts over replayed sessions), and the proof check per
// kernel module, and writes the tables to stdout and bench/RESULTS.md.
// `npm run bench:ci` (--ci) measures 1k and 10k (the usage check at 10k) and the append cost
// only, in well under a minute, and prints without touching RESULTS.md (as does --no-dafny).
// Each scenario lives in its own file (what it measures, how, and its section of the results);
// this file holds the sizes and repetitions, the order of the runs and the report's frame.
import { existsSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { messageText } from "../src/model/message.ts";
import { adversarialBySize, adversarialSection } from "./adversarial.ts";
import { appendBySize, appendSection, warmUpAppend } from "./append.ts";
import { bpeBySample, bpeSection, repositoryTexts } from "./bpe-count.ts";
import { CLEARING_SESSION_MESSAGES, clearingRuns, clearingSection } from "./clearing.ts";
import { callsAnsweredAfterUser, generateConversation, summariesRun } from "./conversation.ts";
import { dafnyModules, dafnySection, timeDafny } from "./dafny.ts";
import { FRESH_SIZES as FRESH_FULL_SIZES, FRESH_REPS, freshBySize, freshSection } from "./fresh.ts";
import { LOOP_BEFORE_AFTER_HEADING, LOOP_HEADING } from "./loop/section.ts";
import { type Repetitions, sinkValue } from "./measure.ts";
import { planningSection, timeBySize, warmUpPlanning } from "./planning.ts";
import { BACKGROUND_HEADING, SESSION_BACKGROUND_HEADING, STEP_CHECK_HEADING, sectionIn } from "./section-file.ts";
import { SESSION_HEADING } from "./session-section.ts";
import { compactionStepsBySize, stepsSection } from "./steps.ts";
import { fmt, fmtN } from "./table.ts";
import { USAGE_REPS, USAGE_SIZES, usageBySize, usageSection } from "./usage.ts";
import { wholeRunSection } from "./whole-run.ts";

const ci = process.argv.includes("--ci");
const skipDafny = ci || process.argv.includes("--no-dafny");

const SIZES = ci ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000];
const PLAN_WORK = ci ? 100_000 : 1_000_000;
const PLAN_REPS: Repetitions = ci ? { warmup: 1, reps: 7 } : { warmup: 1, reps: 5 };
const APPEND_REPS: Repetitions = { warmup: 1, reps: ci ? 7 : 5 };
const BPE_APPENDS = 500;
const LEDGER_APPENDS = ci ? 20_000 : 100_000;
const DAFNY_REPS = 3;
// Both sizes lie above ~16k messages, where the views' number arrays pass V8's 128 KB limit for
// young objects (a one-time step in cost per message, the allocator's, not the search's).
const ADVERSARIAL_SIZES = ci ? [] : [20_000, 200_000];
const RUN_STEPS = 50;
const FRESH_SIZES = ci ? [1_000, 10_000] : FRESH_FULL_SIZES;
// BPE counting of every message is the cost measured: 100k messages take about half a second a sample
const USAGE_BENCH_SIZES = ci ? USAGE_SIZES.slice(0, 1) : USAGE_SIZES;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const started = new Date();
  log(`safecut bench (${ci ? "ci" : "full"}): sizes ${SIZES.map(fmtN).join(", ")}`);
  warmUpPlanning();
  warmUpAppend();
  log("planning...");
  const plan = timeBySize(
    SIZES,
    ["baseline", "planStep", "views", "trigger", "keepRecent", "stretch", "cutPoint"],
    PLAN_WORK,
    PLAN_REPS,
  );
  log("fresh decision...");
  const fresh = await freshBySize(FRESH_SIZES, PLAN_WORK, FRESH_REPS);
  log("reported usage...");
  const usage = await usageBySize(USAGE_BENCH_SIZES, USAGE_REPS);
  log("BPE counting...");
  const bpeTexts = generateConversation(ci ? 500 : 3_000, { seed: 5 }).map(messageText);
  const bpeCount = bpeBySample(
    [
      ["generated conversation", bpeTexts],
      ["this repository's text and code", repositoryTexts()],
    ],
    APPEND_REPS,
  );
  log("append (BPE)...");
  const bpe = appendBySize(SIZES, "store-bpe", BPE_APPENDS, APPEND_REPS);
  log("append (ledger)...");
  const ledger = appendBySize(SIZES, "ledger-chars", LEDGER_APPENDS, APPEND_REPS);
  log("compaction steps...");
  const steps = ci ? [] : await compactionStepsBySize(SIZES, RUN_STEPS, 2);
  log("adversarial planning...");
  const adversarial = adversarialBySize(
    [
      ["consecutive earlier summaries", summariesRun],
      ["parallel calls answered after a user message", callsAnsweredAfterUser],
    ],
    ADVERSARIAL_SIZES,
    5,
  );
  log("clearing against summarizing...");
  const clearing = ci ? [] : await clearingRuns(CLEARING_SESSION_MESSAGES, log);
  const dafny = skipDafny ? [] : timeDafny(dafnyModules(), DAFNY_REPS, log);
  const elapsed = (Date.now() - started.getTime()) / 1000;

  const out = [
    `# safecut benchmarks${ci ? " (CI sizes)" : ""}`,
    "",
    `Run ${started.toISOString()} with \`${ci ? "npm run bench:ci" : "npm run bench"}\` on Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}; took ${fmt(elapsed, 0)} s.`,
    "Times are CPU time of the process (the machine is shared, so wall time mostly measures scheduling), medians of",
    `${PLAN_REPS.reps} samples after ${PLAN_REPS.warmup} warm-up; only ratios within this run are meant to be quoted.`,
    "Conversations are generated (bench/conversation.ts): a system prompt, user turns of 1-8 assistant steps, 40% of",
    "assistant messages calling 1-3 tools each answered right after, sizes log-uniform from a few to a few thousand tokens.",
    "",
    ...freshSection(fresh, PLAN_WORK),
    ...usageSection(usage, USAGE_REPS),
    ...bpeSection(bpeCount, APPEND_REPS),
    ...planningSection(plan, PLAN_WORK),
    ...appendSection(bpe, ledger, BPE_APPENDS, LEDGER_APPENDS),
  ];
  if (steps.length > 0) out.push(...stepsSection(steps, RUN_STEPS));
  if (adversarial.length > 0) out.push(...adversarialSection(adversarial));
  if (clearing.length > 0) out.push(...clearingSection(clearing));
  if (dafny.length > 0) out.push(...dafnySection(dafny, DAFNY_REPS));
  if (!ci) out.push(...wholeRunSection(log));
  if (!ci) out.push(...(await import("./startup.ts")).startupSection());
  // the sections of npm run bench:loop, bench:step, bench:background, bench:session-background and bench/session.ts are
  // written by those, the loop's before/after table by hand; a full run keeps them
  const resultsFile = join(import.meta.dirname, "RESULTS.md");
  const kept = existsSync(resultsFile)
    ? [
        LOOP_HEADING,
        LOOP_BEFORE_AFTER_HEADING,
        STEP_CHECK_HEADING,
        BACKGROUND_HEADING,
        SESSION_BACKGROUND_HEADING,
        SESSION_HEADING,
      ]
        .map((h) => sectionIn(resultsFile, h))
        .filter((s) => s !== "")
    : [];
  const text = [out.join("\n").trimEnd(), ...kept.map((s) => s.trimEnd())].join("\n\n") + (kept.length > 0 ? "\n" : "");
  process.stdout.write(`${text}\n`);
  // only a complete run replaces the committed results
  if (!ci && !skipDafny) writeFileSync(resultsFile, text);
  log(`done (sink ${sinkValue()})`);
}

await main();
