// biome-ignore-all lint/suspicious/noArrayIndexKey: these lists are drawn once from a record and never reordered
/**
 * A negotiation's price ladder: the buyer's offers and the seller's asks round by round, with the
 * buyer's budget B (or cap) and the seller's cost C, which neither side saw, and the deal. Drawn as
 * SVG elements (every label is text).
 */
import type { BargainMessage } from "../../../tui/records/bargain.ts";
import { usd } from "../format.ts";

export function Ladder({
  messages,
  budget,
  cost,
  listPrice,
  deal,
}: {
  messages: BargainMessage[];
  budget: number | null;
  cost: number;
  listPrice: number | null;
  deal: number | null;
}) {
  const points = messages.filter((m) => m.price !== null) as (BargainMessage & { price: number })[];
  const prices = [
    ...points.map((p) => p.price),
    cost,
    ...(budget === null ? [] : [budget]),
    ...(listPrice === null ? [] : [listPrice]),
  ];
  const lo = Math.min(...prices);
  const hi = Math.max(...prices);
  const pad = (hi - lo) * 0.08 || 10;
  const rounds = Math.max(1, ...points.map((p) => p.turn));
  const w = Math.max(360, 70 * rounds + 120);
  const h = 220;
  const left = 70;
  const right = 20;
  const top = 14;
  const bottom = 34;
  const x = (turn: number) => left + ((turn - 0.5) / rounds) * (w - left - right);
  const y = (p: number) => top + (1 - (p - (lo - pad)) / (hi - lo + 2 * pad)) * (h - top - bottom);
  const line = (price: number, label: string, cls: string) => (
    <g className={cls}>
      <line x1={left} x2={w - right} y1={y(price)} y2={y(price)} />
      <text x={left - 6} y={y(price) + 4} textAnchor="end">
        {label}
      </text>
    </g>
  );
  const side = (role: string) => points.filter((p) => p.role === role);
  const path = (ps: typeof points) =>
    ps.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.turn)},${y(p.price)}`).join(" ");
  return (
    <svg
      className="ladder"
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      role="img"
      aria-label="price ladder"
    >
      {line(cost, `C ${usd(cost)}`, "cost")}
      {budget !== null && line(budget, `B ${usd(budget)}`, "budget")}
      {listPrice !== null && line(listPrice, `list ${usd(listPrice)}`, "list")}
      <path d={path(side("buyer"))} className="buyer" />
      <path d={path(side("seller"))} className="seller" />
      {points.map((p, i) => (
        <g key={i} className={p.role === "buyer" ? "buyer" : "seller"}>
          <circle cx={x(p.turn)} cy={y(p.price)} r={4} />
          <title>{`${p.role} ${p.action} ${usd(p.price)}`}</title>
        </g>
      ))}
      {deal !== null && (
        <g className="deal">
          <line x1={left} x2={w - right} y1={y(deal)} y2={y(deal)} />
          <text x={w - right} y={y(deal) - 4} textAnchor="end">{`deal ${usd(deal)}`}</text>
        </g>
      )}
      {Array.from({ length: rounds }, (_, i) => (
        <text key={i} x={x(i + 1)} y={h - 12} textAnchor="middle" className="tick">
          {i + 1}
        </text>
      ))}
      <text x={left} y={h - 1} className="axis">
        round · ● buyer offers · ● seller asks
      </text>
    </svg>
  );
}
