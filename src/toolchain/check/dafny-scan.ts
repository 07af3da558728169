// A light reader of Dafny source for the checker's own accounting: which functions, methods
// and lemmas a file declares (with or without a body, with or without `ensures`), which
// attributes they carry, where `assume`, `expect` and `decreases *` stand, every attribute
// written anywhere in the file (checked against an allow-list, attributes.ts), which modules
// it declares and imports, and which files it includes.
// It does not parse expressions; it tokenizes (comments and strings removed) and walks
// declarations, so that an item the prover never reports, or trusted material, cannot hide.

/** What a declaration is, as far as verification is concerned. */
export type DeclKind = "function" | "method" | "lemma" | "type";

/** One declaration found in a Dafny file. */
export interface Decl {
  kind: DeclKind;
  name: string;
  line: number;
  /** attribute names written on the declaration, e.g. "axiom", "verify" (with "verify false" spelt out) */
  attrs: string[];
  hasBody: boolean;
  hasEnsures: boolean;
  /** `assume` statements (and `expect`, which the prover assumes after it) in the body or the specification */
  assumes: number;
  /** `decreases *` in the specification or the body (termination not proven) */
  decreasesStar: boolean;
}

/** One attribute as written: `{:name ...}` or Dafny 4's `@Name`, anywhere in the file. */
export interface AttributeUse {
  /** "name" for `{:name ...}`, "@Name" for `@Name(...)` */
  name: string;
  line: number;
  /** the declaration it stands in (its head, specification or body); null outside every declaration */
  decl: string | null;
  /** written on the declaration itself, before its name */
  head: boolean;
}

/** The result of scanning one file. */
export interface DafnyScan {
  decls: Decl[];
  /** include paths as written */
  includes: string[];
  /** every attribute in the file, in order */
  attributes: AttributeUse[];
  /** modules the file declares */
  modules: string[];
  /** modules the file imports (`import [opened] A.B`), as written */
  imports: Array<{ name: string; line: number }>;
}

interface Tok {
  text: string;
  line: number;
  /** string literal (text holds its contents) */
  str?: boolean;
}

/** Splits Dafny source into tokens; comments vanish, string literals become one token. */
function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === "\n") {
      line++;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith("//", i)) {
      while (i < n && src[i] !== "\n") i++;
    } else if (src.startsWith("/*", i)) {
      // Dafny block comments nest
      let depth = 0;
      do {
        if (src.startsWith("/*", i)) {
          depth++;
          i += 2;
        } else if (src.startsWith("*/", i)) {
          depth--;
          i += 2;
        } else {
          if (src[i] === "\n") line++;
          i++;
        }
      } while (i < n && depth > 0);
    } else if (c === '"' || (c === "@" && src[i + 1] === '"')) {
      const verbatim = c === "@";
      const start = line;
      i += verbatim ? 2 : 1;
      let text = "";
      while (i < n) {
        if (verbatim && src[i] === '"' && src[i + 1] === '"') {
          text += '"';
          i += 2;
        } else if (src[i] === '"') {
          i++;
          break;
        } else if (!verbatim && src[i] === "\\") {
          text += src.slice(i, i + 2);
          i += 2;
        } else {
          if (src[i] === "\n") line++;
          text += src[i++];
        }
      }
      toks.push({ text, line: start, str: true });
    } else if (c === "'" && /^'(\\.[^']*|[^'\\])'/.test(src.slice(i, i + 12))) {
      const m = /^'(\\.[^']*|[^'\\])'/.exec(src.slice(i, i + 12));
      i += m ? m[0].length : 1;
      toks.push({ text: "'c'", line });
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w'?]/.test(src[j])) j++;
      toks.push({ text: src.slice(i, j), line });
      i = j;
    } else if (/\d/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(src[j])) j++;
      toks.push({ text: src.slice(i, j), line });
      i = j;
    } else {
      const op =
        ["<==>", "==>", "<==", "::", ":=", ":|", "==", "!=", "<=", ">=", "&&", "||", "!!", ".."].find((o) =>
          src.startsWith(o, i),
        ) ?? c;
      toks.push({ text: op, line });
      i += op.length;
    }
  }
  return toks;
}

const MODIFIERS = new Set([
  "ghost",
  "static",
  "twostate",
  "least",
  "greatest",
  "inductive",
  "abstract",
  "opaque",
  "protected",
]);
/** Statements the prover takes as true without proof: `assume`, and `expect` (checked at run time only). */
const ASSUMES = new Set(["assume", "expect"]);
const CALLABLE = new Map<string, DeclKind>([
  ["function", "function"],
  ["predicate", "function"],
  ["copredicate", "function"],
  ["method", "method"],
  ["constructor", "method"],
  ["iterator", "method"],
  ["lemma", "lemma"],
  ["colemma", "lemma"],
]);
const TYPES = new Set(["datatype", "codatatype", "type", "newtype", "const"]);
/** Tokens after which a `{` opens an expression (a set display), not a body. */
const EXPECTS_EXPR = new Set([
  "requires",
  "ensures",
  "reads",
  "modifies",
  "decreases",
  "invariant",
  "(",
  "[",
  ",",
  ":",
  "::",
  ":=",
  "==",
  "!=",
  "<",
  "<=",
  ">=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "&&",
  "||",
  "==>",
  "<==",
  "<==>",
  "!!",
  "!",
  "in",
  "then",
  "else",
  ";",
  "=",
]);

function startsDecl(toks: Tok[], i: number): boolean {
  const t = toks[i]?.text;
  if (t === "@" && !toks[i].str) {
    const after = readAtAttrs(toks, i).next;
    return after > i && startsDecl(toks, after);
  }
  return (
    t !== undefined &&
    !toks[i].str &&
    (MODIFIERS.has(t) ||
      CALLABLE.has(t) ||
      TYPES.has(t) ||
      ["module", "class", "trait", "import", "include"].includes(t))
  );
}

/** Index just past the `}` matching the `{` at `i`. */
function skipBraces(toks: Tok[], i: number, onTok?: (j: number) => void): number {
  let depth = 0;
  for (let j = i; j < toks.length; j++) {
    const t = toks[j];
    if (!t.str && t.text === "{") depth++;
    else if (!t.str && t.text === "}") {
      depth--;
      if (depth === 0) return j + 1;
    } else onTok?.(j);
  }
  return toks.length;
}

/**
 * Whether the `{:name ...}` attribute whose `{` stands at `i` skips a proof. Dafny skips a
 * declaration under `{:verify E}` for E a literal false in any parentheses (the last such
 * attribute wins; any argument but a bare `true` is counted here), and `{:only}` on a member or
 * an assertion turns every other member or assertion into an assumption.
 */
function skipsProof(toks: Tok[], i: number): boolean {
  const inner = toks.slice(i + 2, skipBraces(toks, i) - 1);
  if (inner[0]?.str) return false;
  const args = inner
    .slice(1)
    .map((t) => t.text)
    .join(" ");
  return (inner[0]?.text === "verify" && args !== "true") || inner[0]?.text === "only";
}

/** Reads `{:name ...}` attributes starting at `i`; returns their spelt names and the index after them. */
function readAttrs(toks: Tok[], i: number): { attrs: string[]; next: number } {
  const attrs: string[] = [];
  while (toks[i]?.text === "{" && toks[i + 1]?.text === ":") {
    const end = skipBraces(toks, i);
    attrs.push(skipsProof(toks, i) ? "verify false" : (toks[i + 2]?.text ?? ""));
    i = end;
  }
  return { attrs, next: i };
}

/** Reads Dafny 4's `@Name` or `@Name(...)` attributes before a declaration, from `i`; their names and the index after them. */
function readAtAttrs(toks: Tok[], i: number): { attrs: string[]; next: number } {
  const attrs: string[] = [];
  while (toks[i]?.text === "@" && !toks[i].str && toks[i + 1] && !toks[i + 1].str) {
    attrs.push(toks[i + 1].text);
    i += 2;
    if (toks[i]?.text === "(") {
      let depth = 0;
      do {
        if (toks[i].text === "(") depth++;
        else if (toks[i].text === ")") depth--;
        i++;
      } while (i < toks.length && depth > 0);
    }
  }
  return { attrs, next: i };
}

/** Scans one Dafny file. */
export function scanDafny(src: string): DafnyScan {
  const toks = tokenize(src);
  const decls: Decl[] = [];
  const includes: string[] = [];
  const modules: string[] = [];
  const imports: Array<{ name: string; line: number }> = [];
  // the token range of each declaration, and where its head (attributes before its name) ends
  const ranges: Array<{ decl: Decl; from: number; headTo: number; to: number }> = [];
  let i = 0;
  while (i < toks.length) {
    const t = toks[i];
    if (t.str) {
      i++;
      continue;
    }
    if (t.text === "module" || t.text === "import") {
      let k = i + 1;
      if (t.text === "import" && toks[k]?.text === "opened") k++;
      k = readAttrs(toks, k).next;
      const readPath = (): string[] => {
        const path: string[] = [];
        while (toks[k] && !toks[k].str && /^[A-Za-z_]/.test(toks[k].text)) {
          path.push(toks[k].text);
          if (toks[k + 1]?.text !== ".") break;
          k += 2;
        }
        return path;
      };
      let path = readPath();
      // `import M = A.B` and `import M : A.B` name the module A.B
      if (t.text === "import" && (toks[k + 1]?.text === "=" || toks[k + 1]?.text === ":")) {
        k += 2;
        path = readPath();
      }
      if (t.text === "module" && path.length > 0) modules.push(path.join("."));
      if (t.text === "import") imports.push({ name: path.join(".") || "?", line: t.line });
      i++;
      continue;
    }
    if (t.text === "include" && toks[i + 1]?.str) {
      includes.push(toks[i + 1].text);
      i += 2;
      continue;
    }
    // Dafny 4's @-attributes: @VerifyOnly disables every other member's proof, @Axiom is {:axiom}
    const at = readAtAttrs(toks, i);
    const atAttrs = at.attrs.map((a) => (a === "VerifyOnly" ? "verify false" : a === "Axiom" ? "axiom" : a));
    let j = at.next;
    while (toks[j] && !toks[j].str && MODIFIERS.has(toks[j].text)) j++;
    const kw = toks[j]?.text;
    if (kw !== undefined && !toks[j].str && (CALLABLE.has(kw) || TYPES.has(kw))) {
      let k = j + 1;
      if ((kw === "function" || kw === "predicate") && toks[k]?.text === "method") k++;
      const a = readAttrs(toks, k);
      k = a.next;
      const nameTok = toks[k];
      const named = nameTok && !nameTok.str && /^[A-Za-z_]/.test(nameTok.text);
      const decl: Decl = {
        kind: CALLABLE.get(kw) ?? "type",
        name: named ? nameTok.text : kw,
        line: toks[i].line,
        attrs: [...atAttrs, ...a.attrs],
        hasBody: false,
        hasEnsures: false,
        assumes: 0,
        decreasesStar: false,
      };
      decls.push(decl);
      const range = { decl, from: i, headTo: k, to: k + 1 };
      ranges.push(range);
      if (decl.kind === "type") {
        i = k + 1;
        continue;
      }
      // signature and specification, up to the body or the next declaration
      k = named ? k + 1 : k;
      let depth = 0;
      while (k < toks.length) {
        const x = toks[k];
        if (x.str) {
          k++;
          continue;
        }
        if (x.text === "(" || x.text === "[") depth++;
        else if (x.text === ")" || x.text === "]") depth--;
        else if (depth === 0 && (x.text === "}" || startsDecl(toks, k))) break;
        else if (depth === 0 && x.text === "ensures") decl.hasEnsures = true;
        else if (x.text === "decreases" && toks[k + 1]?.text === "*") decl.decreasesStar = true;
        else if (ASSUMES.has(x.text)) decl.assumes++;
        else if (x.text === "{" && toks[k + 1]?.text === ":") {
          if (skipsProof(toks, k) && !decl.attrs.includes("verify false")) decl.attrs.push("verify false");
          k = skipBraces(toks, k);
          continue;
        } else if (x.text === "{") {
          const afterStar = toks[k - 1]?.text === "*" && toks[k - 2]?.text === "decreases";
          if (depth === 0 && (afterStar || !EXPECTS_EXPR.has(toks[k - 1]?.text ?? ""))) {
            decl.hasBody = true;
            k = skipBraces(toks, k, (m) => {
              if (toks[m].str) return;
              if (ASSUMES.has(toks[m].text)) decl.assumes++;
              // an attribute inside the body: `assert {:only} P` skips the other assertions
              if (toks[m].text === ":" && toks[m - 1]?.text === "{" && !decl.attrs.includes("verify false"))
                if (skipsProof(toks, m - 1)) decl.attrs.push("verify false");
              if (toks[m].text === "decreases" && toks[m + 1]?.text === "*") decl.decreasesStar = true;
            });
            // `function f() { .. } by method { .. }`
            if (toks[k]?.text === "by" && toks[k + 1]?.text === "method") k = skipBraces(toks, k + 2);
            break;
          }
          k = skipBraces(toks, k);
          continue;
        }
        k++;
      }
      range.to = k;
      i = k;
      continue;
    }
    i++;
  }
  return { decls, includes, attributes: attributeUses(toks, ranges), modules, imports };
}

/** `old@L(x)` and its kin name a label after `@`, not an attribute. */
const LABELLED = new Set(["old", "fresh", "unchanged", "allocated"]);

/** Every `{:name ...}` and `@Name` token pair of the file, with the declaration it stands in. */
function attributeUses(toks: Tok[], ranges: Array<{ decl: Decl; from: number; headTo: number; to: number }>) {
  const out: AttributeUse[] = [];
  for (let j = 0; j + 1 < toks.length; j++) {
    const t = toks[j];
    const next = toks[j + 1];
    if (t.str || next.str) continue;
    let name: string | null = null;
    if (t.text === "{" && next.text === ":") name = toks[j + 2] && !toks[j + 2].str ? toks[j + 2].text : "";
    else if (t.text === "@" && /^[A-Za-z_]/.test(next.text) && !LABELLED.has(toks[j - 1]?.text ?? ""))
      name = `@${next.text}`;
    if (name === null) continue;
    const r = [...ranges].reverse().find((x) => x.from <= j && j < x.to);
    out.push({ name, line: t.line, decl: r ? r.decl.name : null, head: r !== undefined && j < r.headTo });
  }
  return out;
}
