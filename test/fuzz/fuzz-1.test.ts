// Program fuzzer, shard 1 of 2 (test/fuzz/shard.ts): random programs plus the regression cases.
import { describe } from "vitest";
import { fuzzShard } from "./shard.ts";

describe("program fuzzer (shard 1)", () => fuzzShard(1));
