// main: f900001
// found: the probe of issue 23 in the fuzzer's shape: a local named like the union type F900001U; Dafny read the literal "red" (F900001U.Red) as a field of that local and did not compile
export type F900001U = "red" | "green" | "blue";
export interface F900001R {
  a: number;
  b: boolean;
  c: F900001U;
}

//@ verify
export function f900001(n: number, m: number, xs: readonly number[], r: F900001R, u: F900001U): F900001U {
  const F900001U: F900001R = r;
  if (F900001U.b && n > m) return "red";
  if (xs.length > 2) return u;
  return F900001U.c;
}
