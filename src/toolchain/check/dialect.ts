// Dafny 2.3 spelling of Dafny 4 source. The committed artifacts are Dafny 4; Debian's
// Dafny 2.3 treats `function` as ghost and needs `function method` for functions that
// code calls, and has no `ghost function` (its functions are ghost already).

const DECL = /^(\s*)(ghost\s+)?(function|predicate)(\s+method)?\b/;

/** Rewrites Dafny 4 declarations to their Dafny 2.3 spelling, line by line. */
export function toDafny23(src: string): string {
  return src
    .split("\n")
    .map((line) => {
      const m = DECL.exec(line);
      if (!m || m[4]) return line;
      if (m[2]) return line.replace(/^(\s*)ghost\s+/, "$1");
      return line.replace(/^(\s*)(function|predicate)\b/, "$1$2 method");
    })
    .join("\n");
}
