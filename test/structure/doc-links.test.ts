// Every relative link of the repository's Markdown pages (README.md, docs/, and the other
// committed .md files) resolves: the file it names exists, and the anchor it names (`#...`) is a
// heading of that file, by the slug GitHub gives a heading. Links inside code (fenced blocks and
// `inline code`) are text, not links; web links (http, https, mailto) are not followed. And every
// repository file the prose names by its path (`test/...`, `src/...`, `docs/...`) exists.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** The committed Markdown pages, as paths relative to the repository. */
function pages(): string[] {
  return execFileSync("git", ["ls-files", "*.md"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((p) => p !== "" && existsSync(join(ROOT, p)));
}

/** A page's text with its fenced code blocks blanked (their lines kept). */
function withoutFences(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, (block) => block.replace(/[^\n]/g, " "));
}

/** A page's text with its fenced code blocks and inline code spans blanked (their lines kept). */
function prose(text: string): string {
  return withoutFences(text).replace(/(`+)[^`\n][\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, " "));
}

/**
 * The anchor GitHub gives a heading's text: lower case, markup and punctuation dropped (letters,
 * digits, spaces, `-` and `_` kept), each space a `-`; a repeated slug gets `-1`, `-2`, ...
 */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page's headings (outside code blocks), duplicates numbered as GitHub does. */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of withoutFences(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug((m[1] ?? "").replace(/`/g, ""));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative links of a page: `[text](target)` and `[text]: target`, each with its line. */
function links(text: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  prose(text)
    .split("\n")
    .forEach((l, i) => {
      for (const m of l.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
        out.push({ target: m[1] ?? "", line: i + 1 });
      const ref = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(l);
      if (ref !== null) out.push({ target: ref[1] ?? "", line: i + 1 });
    });
  return out.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
}

/**
 * The repository files a page names in its prose (outside fenced blocks), as `src/...`, `test/...`,
 * `docs/...` and the like, each with its line: a name that is a path from the repository's root.
 */
function namedFiles(text: string): Array<{ path: string; line: number }> {
  const out: Array<{ path: string; line: number }> = [];
  withoutFences(text)
    .split("\n")
    .forEach((l, i) => {
      for (const m of l.matchAll(
        /(?<![\w./-])((?:src|test|scripts|bench|proofs|docs|examples|bin)\/[\w.-]+(?:\/[\w.-]+)*\.(?:ts|md|sh|js|json|jsonl|dfy))(?![\w/-])/g,
      ))
        out.push({ path: m[1] ?? "", line: i + 1 });
    });
  return out;
}

/** What is wrong with one link of `page`, or null when it resolves. */
function broken(page: string, target: string): string | null {
  const [path = "", anchor] = target.split("#", 2);
  const file = path === "" ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
  if (relative(ROOT, file).startsWith("..")) return "points outside the repository";
  if (!existsSync(file)) return "no such file";
  if (anchor === undefined || anchor === "") return null;
  if (statSync(file).isDirectory() || !file.endsWith(".md")) return "an anchor into a page that is not Markdown";
  return anchors(readFileSync(file, "utf8")).has(decodeURIComponent(anchor).toLowerCase()) ? null : "no such heading";
}

describe("the Markdown pages' relative links", () => {
  it("finds the pages and their links", () => {
    const all = pages();
    expect(all).toContain("README.md");
    expect(all.some((p) => p.startsWith("docs/"))).toBe(true);
    expect(links(readFileSync(join(ROOT, "README.md"), "utf8")).length).toBeGreaterThan(5);
  });

  it("reads GitHub's anchors", () => {
    expect(slug("The kernel entry (safecut/kernel)")).toBe("the-kernel-entry-safecutkernel");
    expect(slug("Sessions: a history that outlives the process")).toBe("sessions-a-history-that-outlives-the-process");
    expect([...anchors("# A\n## Notes\n```\n## Not a heading\n```\n## Notes\n")]).toEqual(["a", "notes", "notes-1"]);
    expect(links("[x](a.md#b) `[y](c.md)` [z](https://e.org)\n[w]: d.md").map((l) => l.target)).toEqual([
      "a.md#b",
      "d.md",
    ]);
  });

  it("each resolves to a file that exists and, for an anchor, a heading of it", () => {
    const bad: string[] = [];
    for (const page of pages()) {
      for (const { target, line } of links(readFileSync(join(ROOT, page), "utf8"))) {
        const why = broken(page, target);
        if (why !== null) bad.push(`${page}:${line}: ${target}: ${why}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("each repository file a page names in its prose exists", () => {
    expect(namedFiles("see test/a/b.test.ts, `src/kernel/x.ts` and ../src/no.ts").map((f) => f.path)).toEqual([
      "test/a/b.test.ts",
      "src/kernel/x.ts",
    ]);
    const bad: string[] = [];
    for (const page of pages())
      for (const { path, line } of namedFiles(readFileSync(join(ROOT, page), "utf8")))
        if (!existsSync(join(ROOT, path))) bad.push(`${page}:${line}: ${path}`);
    expect(bad).toEqual([]);
  });
});
