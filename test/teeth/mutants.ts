// Deliberately broken kernel functions. The teeth test applies each mutation to a copy of
// the kernel, runs the translator and Dafny on the copy, and requires a verification
// error (Dafny exit code 4) -- a rejection by the prover, not by the parser or resolver.

/** One deliberate bug: replace `find` (which must occur exactly once) by `replace`. */
export interface Mutant {
  /** kernel module file name under src/kernel */
  module: string;
  /** the law the mutant breaks, e.g. "L7" */
  law: string;
  find: string;
  replace: string;
  /** what the mutation breaks, in plain words */
  why: string;
}

/** Every mutant the prover must reject; each law that is a decision has at least one. */
export const mutants: Mutant[] = [];
