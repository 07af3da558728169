// A copy of a store that takes over its token and byte counts instead of counting every message
// again (a dry run plans on a copy with clearing applied: dry-run.ts). The store's load reads the
// counts from its options under KNOWN, a key only the engine knows (not part of StoreOptions).
/** The options key of the counts a copy takes over. */
export const KNOWN: unique symbol = Symbol("known counts");

/** Each message's token and byte counts, as the store being copied holds them (its bytes when it counted them). */
export interface KnownCounts {
  readonly tokens: readonly number[];
  readonly bytes?: readonly number[];
}

/** The counts a store's options may carry under KNOWN (beside StoreOptions). */
export interface KnownOption {
  readonly [KNOWN]?: KnownCounts;
}
