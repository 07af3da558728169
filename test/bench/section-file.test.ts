// bench/RESULTS.md is written a section at a time (bench/section-file.ts): replacing one section
// keeps the others as they were, each heading on a line of its own after a blank line. A section
// written without a trailing blank line once left the next "## " heading glued to its last table row.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sectionIn, writeSection } from "../../bench/section-file.ts";
import { tempDir } from "../support/cli-run.ts";

describe("writeSection", () => {
  const start = "# Results\n\n## A\n\nold a\n\n## B\n\nb text\n";

  it("replaces a middle section and leaves the next heading on its own line", () => {
    const f = join(tempDir(), "RESULTS.md");
    writeFileSync(f, start);
    writeSection(f, "## A", ["## A", "", "| x |", "| --- |", "| 1 |"]);
    const text = readFileSync(f, "utf8");
    expect(text).toBe("# Results\n\n## A\n\n| x |\n| --- |\n| 1 |\n\n## B\n\nb text\n");
    expect(sectionIn(f, "## B")).toBe("## B\n\nb text\n");
  });

  it("appends a new section after a blank line, and replaces the last one in place", () => {
    const f = join(tempDir(), "RESULTS.md");
    writeFileSync(f, start);
    writeSection(f, "## C", ["## C", "", "c text"]);
    expect(readFileSync(f, "utf8")).toBe(`${start}\n## C\n\nc text\n`);
    writeSection(f, "## C", ["## C", "", "c again"]);
    expect(readFileSync(f, "utf8")).toBe(`${start}\n## C\n\nc again\n`);
  });

  it("left every heading of bench/RESULTS.md on a line of its own", () => {
    const glued = readFileSync(join(import.meta.dirname, "../../bench/RESULTS.md"), "utf8")
      .split("\n")
      .filter((l) => /\S.*## /.test(l) && !l.startsWith("#"));
    expect(glued).toEqual([]);
  });
});
