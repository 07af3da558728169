// Values between the TypeScript kernel and Dafny's compiled JavaScript: a number is a BigNumber
// there, an array a Seq, a string union an enumeration datatype (tag "tool" is constructor Tool),
// an interface a one-constructor datatype with the same field names. A type parameter is
// instantiated with integers (the cases pass numbers for it).
import type { DafnyProgram, DafnyType } from "./dafny-types.ts";

/** The parts of the compiled program the adapter needs. */
export interface DafnyRuntime {
  BigNumber: BigNumberClass;
  /** Dafny's runtime library (`_dafny`): Seq and friends */
  dafny: { Seq: { of(...xs: unknown[]): unknown } };
  /** the compiled program's module (`_module`): datatypes by name and `__default` holding the functions */
  module: Record<string, unknown>;
}

/** The bits of bignumber.js used here. */
export interface BigNumberClass {
  new (x: number | string): BigNumberValue;
  isBigNumber(x: unknown): x is BigNumberValue;
}
interface BigNumberValue {
  isEqualTo(x: BigNumberValue): boolean;
  isInteger(): boolean;
  toFixed(): string;
}

type Constructors = Record<string, (...args: unknown[]) => unknown>;

const capital = (tag: string): string => tag.charAt(0).toUpperCase() + tag.slice(1);

/** Converts a TypeScript value of Dafny type `t` to the compiled program's representation. */
export function toDafny(p: DafnyProgram, rt: DafnyRuntime, t: DafnyType, v: unknown): unknown {
  switch (t.kind) {
    case "int":
    case "param":
      if (typeof v !== "number" || !Number.isInteger(v)) throw new Error(`not an integer: ${String(v)}`);
      return new rt.BigNumber(v);
    case "bool":
      if (typeof v !== "boolean") throw new Error(`not a boolean: ${String(v)}`);
      return v;
    case "seq":
      if (!Array.isArray(v)) throw new Error(`not an array: ${String(v)}`);
      return rt.dafny.Seq.of(...v.map((x) => toDafny(p, rt, t.of, x)));
    case "named": {
      const dt = p.datatypes.get(t.name);
      if (dt === undefined) throw new Error(`no datatype ${t.name}`);
      const ctors = rt.module[t.name] as Constructors;
      if (dt.kind === "enum") {
        if (typeof v !== "string" || !dt.constructors.includes(capital(v)))
          throw new Error(`not a ${t.name}: ${String(v)}`);
        return ctors[`create_${capital(v)}`]();
      }
      if (typeof v !== "object" || v === null) throw new Error(`not a ${t.name}: ${String(v)}`);
      const rec = v as Record<string, unknown>;
      return ctors[`create_${t.name}`](...dt.fields.map((f) => toDafny(p, rt, f.type, rec[f.name])));
    }
  }
}

/**
 * Whether the TypeScript result `ts` and the compiled program's result `d` are the same value
 * of type `t`: null if they are, else where they first differ.
 */
export function difference(
  p: DafnyProgram,
  rt: DafnyRuntime,
  t: DafnyType,
  ts: unknown,
  d: unknown,
  at = "result",
): string | null {
  switch (t.kind) {
    case "int":
    case "param": {
      if (!rt.BigNumber.isBigNumber(d)) return `${at}: Dafny gave a non-integer ${String(d)}`;
      // an integer double is converted exactly (its shortest decimal names the same integer)
      if (typeof ts !== "number" || !Number.isInteger(ts))
        return `${at}: TypeScript ${String(ts)}, Dafny ${d.toFixed()}`;
      return d.isEqualTo(new rt.BigNumber(ts)) ? null : `${at}: TypeScript ${ts}, Dafny ${d.toFixed()}`;
    }
    case "bool":
      return ts === d ? null : `${at}: TypeScript ${String(ts)}, Dafny ${String(d)}`;
    case "seq": {
      const ds = d as unknown[];
      if (!Array.isArray(ts)) return `${at}: TypeScript gave a non-array ${String(ts)}`;
      if (ts.length !== ds.length) return `${at}.length: TypeScript ${ts.length}, Dafny ${ds.length}`;
      for (let i = 0; i < ts.length; i++) {
        const diff = difference(p, rt, t.of, ts[i], ds[i], `${at}[${i}]`);
        if (diff !== null) return diff;
      }
      return null;
    }
    case "named": {
      const dt = p.datatypes.get(t.name);
      if (dt === undefined) return `${at}: no datatype ${t.name}`;
      const dv = d as Record<string, unknown>;
      if (dt.kind === "enum") {
        const tag = dt.constructors.find((c) => dv[`is_${c}`] === true);
        return typeof ts === "string" && tag === capital(ts)
          ? null
          : `${at}: TypeScript ${String(ts)}, Dafny ${String(tag)}`;
      }
      if (typeof ts !== "object" || ts === null) return `${at}: TypeScript gave a non-object ${String(ts)}`;
      const rec = ts as Record<string, unknown>;
      const extra = Object.keys(rec).filter((k) => !dt.fields.some((f) => f.name === k));
      if (extra.length > 0) return `${at}: TypeScript has fields Dafny does not: ${extra.join(", ")}`;
      for (const f of dt.fields) {
        const diff = difference(p, rt, f.type, rec[f.name], dv[`dtor_${f.name}`], `${at}.${f.name}`);
        if (diff !== null) return diff;
      }
      return null;
    }
  }
}
