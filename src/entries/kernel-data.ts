// Snapshots of what a caller of `safecut/kernel` passes. The proofs are about values: an array
// whose element changes between two reads (a getter, a Proxy, an object whose valueOf moves)
// would make a proven ensures false. So the entry copies every argument into fresh plain data,
// reading each element and field exactly once, checks the copy against the function's requires
// (the generated guards) and hands the kernel the copy alone. What the kernel then decides is
// what the proofs say of the values that single read saw. Values of a type parameter (the T of
// `splice` and `applyClearing`) are moved, never read, by the kernel: their arrays are copied
// one level deep and the values themselves kept as they are (their identity is the point).
import { KernelBoundaryError } from "../model/errors.ts";

/** How deep kernel arguments nest (an array of records of arrays at most); deeper is not kernel data. */
const MAX_DEPTH = 4;

function refuse(fn: string, name: string, what: string): never {
  throw new KernelBoundaryError(fn, `${name} to be plain data: ${what}`);
}

function copy(fn: string, name: string, x: unknown, depth: number): unknown {
  if (x === null) return x;
  switch (typeof x) {
    case "number":
    case "string":
    case "boolean":
    case "undefined":
      return x;
    case "object":
      break;
    default:
      return refuse(fn, name, `a ${typeof x} is not data`);
  }
  if (depth >= MAX_DEPTH) return refuse(fn, name, `nested more than ${MAX_DEPTH} levels deep`);
  if (Array.isArray(x)) {
    const n = x.length;
    if (!Number.isSafeInteger(n) || n < 0) return refuse(fn, name, "an array whose length is not a count");
    const out: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const v: unknown = x[i];
      // numbers, strings and booleans (nearly every element) are taken as read; the element's
      // name is spelled out only for what needs a closer look
      const t = typeof v;
      out[i] = t === "number" || t === "string" || t === "boolean" ? v : copy(fn, `${name}[${i}]`, v, depth + 1);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(x))
    out[key] = copy(fn, `${name}.${key}`, (x as Record<string, unknown>)[key], depth + 1);
  return out;
}

/**
 * A plain copy of one argument of kernel function `fn`: numbers, strings and booleans as they
 * are, arrays and records copied level by level, each element and field read once; a function,
 * symbol or bigint is refused with a KernelBoundaryError naming the argument.
 */
export function snapshot<T>(fn: string, name: string, x: T): T {
  return copy(fn, name, x, 0) as T;
}

/**
 * A copy of an array of values the kernel only moves (a type parameter's): the array is read
 * once, index by index; its values are kept as they are.
 */
export function snapshotOpaque<T>(fn: string, name: string, xs: readonly T[]): T[] {
  if (!Array.isArray(xs)) return refuse(fn, name, "not an array");
  const n = xs.length;
  if (!Number.isSafeInteger(n) || n < 0) return refuse(fn, name, "an array whose length is not a count");
  const out: T[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = xs[i];
  return out;
}
