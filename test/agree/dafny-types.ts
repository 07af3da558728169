// The signatures of the generated Dafny program (dafny/*.dfy), read from its text: for each
// kernel function its parameter and result types, and for each datatype its constructors. The
// agreement check converts values between TypeScript and Dafny's compiled JavaScript by them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A Dafny type as the translator emits it. */
export type DafnyType =
  | { kind: "int" }
  | { kind: "bool" }
  | { kind: "seq"; of: DafnyType }
  | { kind: "named"; name: string }
  | { kind: "param"; name: string };

/** A datatype: a record (one constructor with fields) or an enumeration (constructors without fields). */
export type Datatype =
  | { kind: "record"; name: string; fields: { name: string; type: DafnyType }[] }
  | { kind: "enum"; name: string; constructors: string[] };

/** One compiled function or method of the kernel. */
export interface Signature {
  name: string;
  file: string;
  params: { name: string; type: DafnyType }[];
  result: DafnyType;
}

/** What the generated program declares. */
export interface DafnyProgram {
  signatures: Map<string, Signature>;
  datatypes: Map<string, Datatype>;
}

/** Splits `a: int, b: seq<X>` at the commas outside angle brackets and parentheses. */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of text) {
    if (ch === "<" || ch === "(") depth++;
    if (ch === ">" || ch === ")") depth--;
    if (ch === "," && depth === 0) {
      parts.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  if (cur.trim() !== "") parts.push(cur.trim());
  return parts;
}

function parseType(text: string, typeParams: readonly string[]): DafnyType {
  const t = text.trim();
  if (t === "int" || t === "nat") return { kind: "int" };
  if (t === "bool") return { kind: "bool" };
  const seq = /^seq<(.*)>$/.exec(t);
  if (seq) return { kind: "seq", of: parseType(seq[1], typeParams) };
  if (typeParams.includes(t)) return { kind: "param", name: t };
  if (/^[A-Z]\w*$/.test(t)) return { kind: "named", name: t };
  throw new Error(`agreement check: Dafny type ${JSON.stringify(t)} has no TypeScript mapping`);
}

function parseParams(text: string, typeParams: readonly string[]): { name: string; type: DafnyType }[] {
  return splitTop(text).map((p) => {
    const at = p.indexOf(":");
    return { name: p.slice(0, at).trim(), type: parseType(p.slice(at + 1), typeParams) };
  });
}

const DATATYPE = /^datatype (\w+) = (.*)$/;
const FUNCTION = /^function (\w+)(?:<([^>]*)>)?\((.*)\): (.+)$/;
const METHOD = /^method (\w+)(?:<([^>]*)>)?\((.*)\) returns \(\w+: (.+)\)$/;

/** Reads every declaration of the generated program in `dir` (the companions hold proofs only). */
export function readDafnyProgram(dir: string): DafnyProgram {
  const signatures = new Map<string, Signature>();
  const datatypes = new Map<string, Datatype>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".dfy"))
    .sort()) {
    for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
      const d = DATATYPE.exec(line);
      if (d) {
        const [, name, body] = d;
        const record = new RegExp(`^${name}\\((.*)\\)$`).exec(body.trim());
        datatypes.set(
          name,
          record
            ? { kind: "record", name, fields: parseParams(record[1], []) }
            : { kind: "enum", name, constructors: body.split("|").map((c) => c.trim()) },
        );
        continue;
      }
      const f = FUNCTION.exec(line) ?? METHOD.exec(line);
      if (f) {
        const [, name, tps, params, result] = f;
        const typeParams = tps ? tps.split(",").map((x) => x.trim()) : [];
        signatures.set(name, {
          name,
          file,
          params: parseParams(params, typeParams),
          result: parseType(result, typeParams),
        });
      }
    }
  }
  return { signatures, datatypes };
}
