// One section of bench/RESULTS.md, for a bench command that measures one thing and leaves the
// rest of the file as it is: a section runs from its "## " heading to the next one.
import { readFileSync, writeFileSync } from "node:fs";

/** Replaces the section under `heading` in `file` (up to the next "## " heading), or appends it. */
export function writeSection(file: string, heading: string, lines: readonly string[]): void {
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(`${heading}\n`);
  // a section ends with one newline; a blank line parts it from the next heading
  const section = `${lines.join("\n").trimEnd()}\n`;
  if (at < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}`);
    return;
  }
  const next = text.indexOf("\n## ", at + heading.length);
  writeFileSync(file, text.slice(0, at) + section + (next < 0 ? "" : `\n${text.slice(next + 1)}`));
}

/** The section under `heading` in `file` as it stands (empty when there is none), for a writer of the whole file. */
export function sectionIn(file: string, heading: string): string {
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(`${heading}\n`);
  if (at < 0) return "";
  const next = text.indexOf("\n## ", at + heading.length);
  return text.slice(at, next < 0 ? undefined : next + 1);
}

/** The section `npm run bench:step` writes (step-check.ts). */
export const STEP_CHECK_HEADING = "## The per-step check of an agent";
/** The section `npm run bench:background` writes (background-wait.ts). */
export const BACKGROUND_HEADING = "## Background mode: the agent's wait";
/** The section `npm run bench:session-background` writes (session-background.ts). */
export const SESSION_BACKGROUND_HEADING = "## Background mode on a session: the agent's wait";
