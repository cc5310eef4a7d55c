import { describe, expect, it } from "vitest";
import {
  ceilCents,
  floorCents,
  formatUsd,
  roundCents,
  samePrice,
} from "../../../environments/kernel/money.ts";

describe("money", () => {
  it("rounds to cents without binary surprises", () => {
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(2.675)).toBe(2.68);
    expect(roundCents(-1.005)).toBe(-1.01);
    expect(floorCents(0.29)).toBe(0.29);
    expect(floorCents(3.992)).toBe(3.99);
    expect(floorCents(479.99200000000002)).toBe(479.99);
    expect(ceilCents(0.29)).toBe(0.29);
    expect(ceilCents(3.991)).toBe(4);
    expect(ceilCents(509.99)).toBe(509.99);
  });

  it("formats prompt amounts without thousands separators", () => {
    expect(formatUsd(10)).toBe("$10");
    expect(formatUsd(12.5)).toBe("$12.50");
    expect(formatUsd(1123.456)).toBe("$1123.46");
    expect(formatUsd(-3.1)).toBe("-$3.10");
  });

  it("treats amounts a cent apart as the same price (the reference's tolerance)", () => {
    expect(samePrice(10, 10.01)).toBe(true);
    expect(samePrice(0.1 + 0.2, 0.31)).toBe(true);
    expect(samePrice(10, 10.02)).toBe(false);
  });
});
