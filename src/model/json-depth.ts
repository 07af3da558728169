// How deep a conversation's JSON may nest. Node's own recursive helpers (JSON.stringify,
// util.isDeepStrictEqual, structuredClone) overflow the stack a few thousand levels down, which
// would fail a run after its summarizer calls were made and paid for. So input nested deeper than
// MAX_NESTING is refused when it is read, by checks that are themselves iterative and linear.
import { InputError } from "./errors.ts";

/** Most levels of arrays and objects accepted in one value (serde_json's default is 128). */
export const MAX_NESTING = 256;

/** Where JSON text first nests deeper than MAX_NESTING (1-based line and column), if it does. */
export function nestingFaultInText(text: string): { line: number; column: number } | undefined {
  let depth = 0;
  let inString = false;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: the next character is escaped
      else if (ch === 0x22) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > MAX_NESTING) return { line, column: i - lineStart + 1 };
    } else if (ch === 0x7d || ch === 0x5d) depth = Math.max(0, depth - 1);
    else if (ch === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return undefined;
}

/** Refuses JSON text nested deeper than MAX_NESTING with an InputError naming where (`name`: the input's name). */
export function assertTextNesting(text: string, name: string): void {
  const at = nestingFaultInText(text);
  if (at !== undefined) {
    throw new InputError(
      `${name}:${at.line}:${at.column}`,
      `arrays and objects nested more than ${MAX_NESTING} levels deep; safecut refuses input nested that deep`,
    );
  }
}

// Stacks of the walk below, kept between calls: a conversation runs the walk once per message,
// and two fresh arrays per message were a large part of reading it.
const unfoldValues: unknown[] = [];
const unfoldDepths: number[] = [];
/** Most objects the walk below visits before it leaves the value to nestsTooDeep. */
const UNFOLD_BUDGET = 4096;

/**
 * True when no path from `value` down through arrays and objects (their enumerable keys, inherited
 * ones included) is longer than MAX_NESTING, found by walking every path (a shared object once per
 * path that reaches it) with no set of visited objects. nestsTooDeep visits each object at one of those paths only, so then it finds no fault
 * either. False when a path is longer (a cycle has one), or after UNFOLD_BUDGET objects (heavy
 * sharing can make the paths exponentially many): the caller then asks nestsTooDeep for the
 * verdict, so this walk only saves work, it never decides a refusal. It allocates nothing.
 */
function shallowUnfolded(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  const values = unfoldValues;
  const depths = unfoldDepths;
  // entries below `base` belong to a walk this one runs inside of (a getter may call back in)
  const base = values.length;
  values.push(value);
  depths.push(1);
  let visits = 0;
  while (values.length > base) {
    const v = values.pop() as object;
    const d = depths.pop() as number;
    if (d > MAX_NESTING || ++visits > UNFOLD_BUDGET) {
      values.length = base; // no reference to the caller's values is kept
      depths.length = base;
      return false;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === "object" && x !== null) {
          values.push(x);
          depths.push(d + 1);
        }
      }
    } else {
      // every enumerable key, inherited ones too (no own-key test per key, which cost a walk of
      // a long conversation more than half again): a superset of the own paths nestsTooDeep
      // walks, so a value this walk clears has no own path too long either
      for (const k in v) {
        const x = (v as Record<string, unknown>)[k];
        if (typeof x === "object" && x !== null) {
          values.push(x);
          depths.push(d + 1);
        }
      }
    }
  }
  return true;
}

/**
 * Whether `value` nests deeper than MAX_NESTING: the same walk as faultPath (same order, same
 * once-per-object rule, so the same verdict) without building paths, which every message of every
 * run pays for; the path is built only for the rare value that fails.
 */
function nestsTooDeep(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  const seen = new Set<object>();
  while (values.length > 0) {
    const v = values.pop();
    const d = (depths.pop() as number) + 1;
    if (typeof v !== "object" || v === null || seen.has(v)) continue;
    seen.add(v);
    if (d > MAX_NESTING) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++)
        if (typeof v[i] === "object" && v[i] !== null) {
          values.push(v[i]);
          depths.push(d);
        }
    } else {
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        const x = (v as Record<string, unknown>)[k];
        if (typeof x === "object" && x !== null) {
          values.push(x);
          depths.push(d);
        }
      }
    }
  }
  return false;
}

/**
 * The path (below `root`) of the first array or object nested deeper than MAX_NESTING levels
 * inside `value`, or undefined. Iterative: any depth is walked without recursion.
 */
export function nestingFaultInValue(value: unknown, root: string): string | undefined {
  return !shallowUnfolded(value) && nestsTooDeep(value) ? faultPath(value, root) : undefined;
}

/** nestingFaultInValue's walk with a path kept for every entry, to name where a value is too deep. */
function faultPath(value: unknown, root: string): string | undefined {
  interface Entry {
    readonly v: unknown;
    readonly depth: number;
    readonly parent: Entry | undefined;
    readonly key: string;
  }
  const stack: Entry[] = [{ v: value, depth: 0, parent: undefined, key: root }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const e = stack.pop() as Entry;
    if (typeof e.v !== "object" || e.v === null || seen.has(e.v)) continue;
    seen.add(e.v); // shared references are walked once (and a cycle does not loop)
    const depth = e.depth + 1;
    if (depth > MAX_NESTING) return pathOf(e);
    if (Array.isArray(e.v)) e.v.forEach((x, i) => stack.push({ v: x, depth, parent: e, key: `[${i}]` }));
    else
      for (const [k, x] of Object.entries(e.v))
        stack.push({ v: x, depth, parent: e, key: /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]` });
  }
  return undefined;
}

function pathOf(e: { readonly parent: unknown; readonly key: string }): string {
  const keys: string[] = [];
  for (
    let x: { readonly parent: unknown; readonly key: string } | undefined = e;
    x !== undefined;
    x = x.parent as typeof x
  )
    keys.push(x.key);
  keys.reverse();
  // the first few steps say where; hundreds more would drown the message
  return keys.length > 8 ? `${keys.slice(0, 8).join("")}...` : keys.join("");
}

/**
 * assertValueNesting on each element of `values` in order, each named `root[i]`: the first element
 * too deep is refused. The path text is built only for an element the allocation-free walk cannot
 * clear, so a long conversation pays no string per message.
 */
export function assertEachNesting(values: readonly unknown[], root: string): void {
  // a plain loop: a hole reads as undefined, which nests nothing (as forEach skipping it did)
  for (let i = 0; i < values.length; i++)
    if (!shallowUnfolded(values[i])) assertValueNesting(values[i], `${root}[${i}]`);
}

/** Refuses a value nested deeper than MAX_NESTING with an InputError naming its path (below `root`). */
export function assertValueNesting(value: unknown, root: string): void {
  const path = nestingFaultInValue(value, root);
  if (path !== undefined)
    throw new InputError(
      path,
      `arrays and objects nested more than ${MAX_NESTING} levels deep; safecut refuses values nested that deep`,
    );
}
