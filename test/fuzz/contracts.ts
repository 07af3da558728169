// The program fuzzer's contract sample: the contracted functions (test/fuzz/programs.ts,
// contracted()) of a few programs are translated on their own and verified in one `dafny
// verify` run with Dafny 4, which reports each item's outcome. The fuzzer then holds each
// function whose contract verified to it in Node: on inputs that meet its requires, Node's
// result must meet its ensures (both evaluated exactly, by the spec functions compiled from
// Dafny), or the prover verified an ensures that is false where the code runs.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isProof, parseCsv4 } from "../../src/toolchain/check/accounting.ts";
import { findDafny4 } from "../agree/compile.ts";
import { translate } from "../toolchain/harness.ts";
import type { Program } from "./programs.ts";

/** Per time-limited item: Dafny 4 gives up on one after this many seconds (then it is not verified). */
const ITEM_SECONDS = 20;

/**
 * Verifies the contracted functions of `programs` in one Dafny 4 run under `dir` (their Dafny
 * changed by `mutate`, for the test of this check); returns the names of the functions every
 * item of which the prover reported proven.
 */
export function verifyContracts(
  programs: readonly Program[],
  dir: string,
  mutate: (dafny: string) => string = (d) => d,
): Set<string> {
  const dafny = findDafny4();
  if (dafny === null || programs.length === 0) return new Set();
  mkdirSync(dir, { recursive: true });
  const text = programs
    .filter((p) => p.contracts !== "")
    .map((p) => mutate(translate({ [`q${p.main}`]: p.contracts }).get(`q${p.main}`) ?? ""))
    .join("\n");
  const file = join(dir, "contracts.dfy");
  const csv = join(dir, "contracts.csv");
  writeFileSync(file, text);
  spawnSync(
    dafny.command,
    [
      "verify",
      "--allow-warnings",
      "--verification-time-limit",
      String(ITEM_SECONDS),
      "--log-format",
      `csv;LogFileName=${csv}`,
      file,
    ],
    { encoding: "utf8" },
  );
  if (!existsSync(csv)) throw new Error(`dafny verify wrote no item log for ${file}`);
  const items = parseCsv4(readFileSync(csv, "utf8"));
  const proven = new Set<string>();
  const failed = new Set<string>();
  for (const it of items) (isProof(it.outcome) ? proven : failed).add(it.name);
  return new Set([...proven].filter((n) => !failed.has(n)));
}
