// The agreement check's comparison can fail: differences in integers, lengths, enumeration tags and
// record fields are each reported, on stand-ins shaped like Dafny's compiled datatypes.
import BigNumber from "bignumber.js";
import { describe, expect, it } from "vitest";
import { type BigNumberClass, type DafnyRuntime, difference, toDafny } from "./adapter.ts";
import type { DafnyProgram, DafnyType } from "./dafny-types.ts";

class Seq extends Array<unknown> {}
/** An enumeration datatype as Dafny compiles it: a tag and one is_X getter per constructor. */
class Role {
  constructor(readonly tag: string) {}
  get is_User(): boolean {
    return this.tag === "User";
  }
  get is_Tool(): boolean {
    return this.tag === "Tool";
  }
  static create_User(): Role {
    return new Role("User");
  }
  static create_Tool(): Role {
    return new Role("Tool");
  }
}
/** A record datatype: fields read through dtor_ getters. */
class Stretch {
  constructor(
    readonly found: boolean,
    readonly start: BigNumber,
  ) {}
  get dtor_found(): boolean {
    return this.found;
  }
  get dtor_start(): BigNumber {
    return this.start;
  }
  static create_Stretch(found: boolean, start: BigNumber): Stretch {
    return new Stretch(found, start);
  }
}

const program: DafnyProgram = {
  signatures: new Map(),
  datatypes: new Map([
    ["Role", { kind: "enum", name: "Role", constructors: ["User", "Tool"] }],
    [
      "Stretch",
      {
        kind: "record",
        name: "Stretch",
        fields: [
          { name: "found", type: { kind: "bool" } },
          { name: "start", type: { kind: "int" } },
        ],
      },
    ],
  ]),
};
const rt: DafnyRuntime = {
  BigNumber: BigNumber as unknown as BigNumberClass,
  dafny: { Seq },
  module: { Role, Stretch },
};
const int: DafnyType = { kind: "int" };
const roles: DafnyType = { kind: "seq", of: { kind: "named", name: "Role" } };
const stretch: DafnyType = { kind: "named", name: "Stretch" };

describe("agreement adapter", () => {
  it("finds equal values equal, 2^53 - 1 included", () => {
    expect(difference(program, rt, int, 2 ** 53 - 1, new BigNumber("9007199254740991"))).toBeNull();
    expect(difference(program, rt, roles, ["user", "tool"], toDafny(program, rt, roles, ["user", "tool"]))).toBeNull();
    expect(
      difference(program, rt, stretch, { found: true, start: 3 }, Stretch.create_Stretch(true, new BigNumber(3))),
    ).toBeNull();
  });

  it("reports each kind of difference", () => {
    // 2^53 + 1 is not a double: a TypeScript result that rounded differs from Dafny's integer
    expect(difference(program, rt, int, 2 ** 53, new BigNumber("9007199254740993"))).toContain(
      "Dafny 9007199254740993",
    );
    expect(difference(program, rt, int, 0.5, new BigNumber(0))).toContain("TypeScript 0.5");
    expect(difference(program, rt, roles, ["user"], toDafny(program, rt, roles, ["user", "tool"]))).toContain(
      "result.length",
    );
    expect(difference(program, rt, roles, ["user", "user"], toDafny(program, rt, roles, ["user", "tool"]))).toContain(
      "result[1]",
    );
    expect(
      difference(program, rt, stretch, { found: true, start: 4 }, Stretch.create_Stretch(true, new BigNumber(3))),
    ).toContain("result.start");
    expect(
      difference(
        program,
        rt,
        stretch,
        { found: true, start: 3, end: 0 },
        Stretch.create_Stretch(true, new BigNumber(3)),
      ),
    ).toContain("end");
  });

  it("refuses inputs it cannot represent", () => {
    expect(() => toDafny(program, rt, roles, ["robot"])).toThrow("not a Role");
    expect(() => toDafny(program, rt, int, 1.5)).toThrow("not an integer");
  });
});
