// Dafny's spelling of kernel names. Input: a TypeScript identifier and where it stands.
// Output: the identifier Dafny sees (a reserved word gets a trailing '_'), or a TranslateError
// for a name Dafny cannot spell. It is applied to every kernel name that reaches Dafny text;
// it does not decide what a name refers to.

import { type Pos, TranslateError } from "../ir/ir.ts";

/** Dafny reserved words (and `to`, which Dafny 4.11 misreads as a parameter); a TypeScript identifier spelled like one gets a trailing '_'. */
const RESERVED = new Set(
  (
    "abstract allocated as assert assume bool break by calc case char class codatatype colemma const " +
    "constructor copredicate datatype decreases default else ensures exists expect export extends false " +
    "forall fresh function ghost greatest if imap import in include inductive int invariant is iset iterator " +
    "label least lemma map match method modifies modify module multiset nat new newtype null object old " +
    "opened ORDINAL predicate print provides reads real refines requires result return returns reveal " +
    "reveals seq set static string then this to trait true twostate type unchanged var while witness yield yields"
  ).split(" "),
);

/** The Dafny spelling of a TypeScript identifier. */
export function dafnyName(name: string, pos: Pos): string {
  if (name.startsWith("_") || name.includes("$"))
    throw new TranslateError(
      pos,
      `unsupported identifier '${name}' (Dafny names cannot start with '_' or contain '$')`,
    );
  if (name.endsWith("_") && RESERVED.has(name.slice(0, -1)))
    throw new TranslateError(
      pos,
      `unsupported identifier '${name}' (it is the Dafny spelling of '${name.slice(0, -1)}')`,
    );
  return RESERVED.has(name) ? `${name}_` : name;
}
