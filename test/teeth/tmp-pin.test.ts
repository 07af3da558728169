import { describeTeeth } from "./tmp-pin-teeth.ts";

describeTeeth(0, 1);
