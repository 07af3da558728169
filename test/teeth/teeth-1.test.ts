// Shard 1 of 2 of the teeth test (teeth.ts says why it is split).
import { describeTeeth } from "./teeth.ts";

describeTeeth(0, 2);
