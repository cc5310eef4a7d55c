import type { MarketPage, RunPage } from "../../api-types.ts";
import { ErrorNote, Loading, RunHeader, Section } from "../components/common.tsx";
import { Chart } from "../components/figure.tsx";
import { pct, usd } from "../format.ts";
import { useLoad } from "../hooks.ts";
import { Link, runPath } from "../router.tsx";
import { AnalysisSection } from "./run.tsx";

function sharesSpec(rows: MarketPage["markets"][number]["shares"]): Record<string, unknown> {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 420,
    height: 220,
    data: { values: rows.filter((r) => r.share !== null) },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "round", type: "ordinal", title: "round", axis: { labelAngle: 0 } },
      y: { field: "share", type: "quantitative", title: "share of bookings", axis: { format: "%" } },
      color: { field: "seller", type: "nominal", legend: { labelLimit: 0, orient: "bottom", columns: 2 } },
      tooltip: [
        { field: "seller", type: "nominal" },
        { field: "round", type: "ordinal" },
        { field: "share", type: "quantitative", format: ".1%" },
        { field: "price", type: "quantitative", format: "$.2f" },
      ],
    },
  };
}

export function MarketView({ id }: { id: string }) {
  const run = useLoad<RunPage>(`/runs/${encodeURIComponent(id)}`, 2000, (d) => d === null || d.run.active);
  const m = useLoad<MarketPage>(
    `/markets/${encodeURIComponent(id)}`,
    2000,
    () => run.data?.run.active === true,
  );
  return (
    <main>
      {run.data && <RunHeader run={run.data.run} here="market" />}
      <ErrorNote error={m.error ?? run.error} />
      {!m.data && !m.error && <Loading what="the market" />}
      {m.data?.markets.map((mk) => (
        <Section key={mk.key} title={`Market ${mk.key}`}>
          <Chart spec={sharesSpec(mk.shares)} title={`shares over rounds in ${mk.key}`} />
          {mk.rounds.map((r) => (
            <div key={r.round} className="round">
              <h3>
                round {r.round}{" "}
                {r.buyersRun && <Link to={runPath(r.buyersRun, "/episodes")}>buyer episodes</Link>}
                {r.sellersRun && (
                  <>
                    {" · "}
                    <Link to={runPath(r.sellersRun, "/episodes")}>seller turns</Link>
                  </>
                )}
              </h3>
              <p className="meta">{r.summary}</p>
              <table className="data">
                <thead>
                  <tr>
                    <th className="num">seller</th>
                    <th>name</th>
                    <th>agent</th>
                    <th className="num">price</th>
                    <th>description</th>
                    <th className="num">booked</th>
                    <th>its turn after the round</th>
                  </tr>
                </thead>
                <tbody>
                  {r.sellers.map((s) => (
                    <tr key={s.seller}>
                      <td className="num">{s.seller}</td>
                      <td>{s.name}</td>
                      <td>
                        {s.agent}
                        {s.adopter && " (adopter)"}
                      </td>
                      <td className="num">
                        {usd(s.price)}
                        {s.priceChange
                          ? ` (${s.priceChange > 0 ? "+" : "−"}${usd(Math.abs(s.priceChange))})`
                          : ""}
                      </td>
                      <td className="description">
                        <span className="badge">{s.arm ?? "–"}</span> {s.seen}
                      </td>
                      <td className="num">
                        {s.bookings} ({pct(s.share, 0)})
                      </td>
                      <td>
                        {s.turnSeq !== null && r.sellersRun ? (
                          <Link to={runPath(r.sellersRun, `/episodes/${s.turnSeq}`)}>{s.turn}</Link>
                        ) : (
                          s.turn
                        )}
                        {s.wrote && <p className="description wrote">{s.wrote.text}</p>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </Section>
      ))}
      <AnalysisSection runId={id} />
    </main>
  );
}
