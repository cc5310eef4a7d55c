import { describe, expect, it } from "vitest";
import { usd } from "../../../analysis/bargain/tables.ts";

describe("bargaining tables' dollars", () => {
  it("signs what is shown: a negative that rounds to nothing is $0.00, never -$0.00", () => {
    expect(usd(-0.004)).toBe("$0.00");
    expect(usd(-0)).toBe("$0.00");
    expect(usd(-0.005000001)).toBe("-$0.01");
    expect(usd(-12.5)).toBe("-$12.50");
    expect(usd(3.456)).toBe("$3.46");
    expect(usd(null)).toBe("–");
  });
});
