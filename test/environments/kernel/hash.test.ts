import { describe, expect, it } from "vitest";
import { canonicalJson, stableHash } from "../../../environments/kernel/hash.ts";

describe("canonicalJson", () => {
  it("sorts keys at every level and otherwise matches JSON.stringify", () => {
    const value = { b: [3, { z: 1, a: null }, "x"], a: { d: true, c: 1.5 }, u: undefined, s: 'q"uote' };
    expect(canonicalJson(value)).toBe('{"a":{"c":1.5,"d":true},"b":[3,{"a":null,"z":1},"x"],"s":"q\\"uote"}');
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
    expect(canonicalJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
  });

  it("gives equal hashes for equal values whatever the key order", () => {
    expect(stableHash({ a: 1, b: [1, 2] })).toBe(stableHash({ b: [1, 2], a: 1 }));
    expect(stableHash({ a: 1 })).not.toBe(stableHash({ a: 2 }));
  });
});
