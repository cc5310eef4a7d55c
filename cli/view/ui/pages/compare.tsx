import type { ComparePage } from "../../api-types.ts";
import { ErrorNote, Loading, ProgressBar, Section } from "../components/common.tsx";
import { count, pct, usd } from "../format.ts";
import { useLoad } from "../hooks.ts";
import { Link, runPath } from "../router.tsx";

function value(x: number | null, unit: string): string {
  if (x === null) return "—";
  if (unit === "share") return pct(x);
  if (unit === "dollars") return usd(x);
  return x.toFixed(2);
}

function diff(x: number | null, unit: string): string {
  if (x === null) return "—";
  const sign = x > 0 ? "+" : x < 0 ? "−" : "";
  if (unit === "share") return `${sign}${(100 * Math.abs(x)).toFixed(1)} pts`;
  if (unit === "dollars") return `${sign}${usd(Math.abs(x))}`;
  return `${sign}${Math.abs(x).toFixed(2)}`;
}

export function CompareView({ query }: { query: URLSearchParams }) {
  const c = useLoad<ComparePage>(
    `/compare?${query.toString()}`,
    1000,
    (d) => d === null || d.status === "running",
  );
  const d = c.data;
  const link = (q: string) => `/compare?${q}`;
  return (
    <main>
      <nav className="crumbs">
        <Link to="/">runs</Link> / compare
      </nav>
      <h1>Compare</h1>
      <ErrorNote error={c.error} />
      {!d && !c.error && <Loading what="the comparison" />}
      {d?.status === "running" && (
        <div>
          <p>Reading both sides…</p>
          {d.progress && <ProgressBar done={d.progress.read} total={d.progress.total} />}
        </div>
      )}
      {d && d.status === "ready" && (
        <>
          <p className="meta">
            A: <Link to={runPath(d.a.run)}>{d.a.label}</Link> · B:{" "}
            <Link to={runPath(d.b.run)}>{d.b.label}</Link> · {count(d.paired)} tasks both played (
            {count(d.onlyA)} only A, {count(d.onlyB)} only B)
          </p>
          <Section title="Headline differences (B − A, paired on the tasks, 95% task-clustered intervals)">
            <table className="data">
              <thead>
                <tr>
                  <th>measure</th>
                  <th className="num">A</th>
                  <th className="num">B</th>
                  <th className="num">B − A</th>
                  <th className="num">95% interval</th>
                  <th className="num">episodes</th>
                </tr>
              </thead>
              <tbody>
                {d.metrics.map((m) => (
                  <tr key={m.name}>
                    <td>{m.name}</td>
                    <td className="num">{value(m.a, m.unit)}</td>
                    <td className="num">{value(m.b, m.unit)}</td>
                    <td className="num">{diff(m.difference, m.unit)}</td>
                    <td className="num">
                      {m.low === null ? "—" : `[${diff(m.low, m.unit)}, ${diff(m.high, m.unit)}]`}
                    </td>
                    <td className="num">{count(m.n)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
          <Section title={`Where they differ (${count(d.differing)} tasks)`}>
            <table className="data">
              <thead>
                <tr>
                  <th>task</th>
                  <th>A</th>
                  <th>B</th>
                </tr>
              </thead>
              <tbody>
                {d.differ.map((x) => (
                  <tr key={x.task}>
                    <td>
                      <code>{x.task}</code>
                    </td>
                    <td>
                      <Link to={runPath(d.a.run, `/episodes/${x.a.seq}`)}>{x.a.outcome}</Link>{" "}
                      <span className="dim">{x.a.detail}</span>
                    </td>
                    <td>
                      <Link to={runPath(d.b.run, `/episodes/${x.b.seq}`)}>{x.b.outcome}</Link>{" "}
                      <span className="dim">{x.b.detail}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <nav className="pager">
              {d.prev && <Link to={link(d.prev)}>← previous</Link>}
              {d.next && <Link to={link(d.next)}>next →</Link>}
            </nav>
          </Section>
        </>
      )}
    </main>
  );
}
