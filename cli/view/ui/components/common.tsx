// biome-ignore-all lint/suspicious/noArrayIndexKey: these lists are drawn once from a record and never reordered
import type { ReactNode } from "react";
import type { Block, RunRow } from "../../api-types.ts";
import { count } from "../format.ts";
import { Link, runPath } from "../router.tsx";

/** An analysis' text: its tables as tables, its other lines as they are. */
export function Blocks({ blocks, compact = false }: { blocks: Block[]; compact?: boolean }) {
  return (
    <div className={compact ? "blocks compact" : "blocks"}>
      {blocks.map((b, i) =>
        b.kind === "text" ? (
          <pre key={i} className="lines">
            {b.lines.join("\n")}
          </pre>
        ) : (
          <div key={i} className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  {b.header.map((h, j) => (
                    <th key={j} className={b.numeric[j] ? "num" : undefined}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {b.rows.map((r, k) => (
                  <tr key={k}>
                    {b.header.map((_, j) => (
                      <td key={j} className={b.numeric[j] ? "num" : undefined}>
                        {r[j] ?? ""}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ),
      )}
    </div>
  );
}

export function ProgressBar({ done, total, label }: { done: number; total: number; label?: string }) {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  return (
    <span className="progress" title={label ?? `${count(done)} of ${count(total)}`}>
      <span className="bar">
        <span className="fill" style={{ width: `${(100 * share).toFixed(1)}%` }} />
      </span>
      <span className="label">{label ?? `${count(done)} / ${count(total)}`}</span>
    </span>
  );
}

export function Live({ active }: { active: boolean }) {
  return active ? <span className="badge live">running</span> : null;
}

export function ErrorNote({ error }: { error: string | null }) {
  return error ? <p className="error">{error}</p> : null;
}

export function Loading({ what }: { what: string }) {
  return <p className="loading">Loading {what}…</p>;
}

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section id={id}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** The run's name, environment and progress, at the top of its pages. */
export function RunHeader({
  run,
  here,
}: {
  run: RunRow;
  here: "overview" | "episodes" | "episode" | "market";
}) {
  const isMarket = run.parts !== null;
  return (
    <header className="run-header">
      <nav className="crumbs">
        <Link to="/">runs</Link>
        {run.market && (
          <>
            {" / "}
            <Link to={`/markets/${encodeURIComponent(run.market)}`}>market {run.market}</Link>
          </>
        )}
        {" / "}
        <span className="here">{run.id}</span>
      </nav>
      <h1>
        <span className="run-id">{run.id}</span> <span className="env">{run.env}</span>{" "}
        <Live active={run.active} />
      </h1>
      <p className="meta">
        <ProgressBar done={run.done} total={run.total} /> · {count(run.nonResponses)} non-responses ·{" "}
        {count(run.failed)} failed · agents: {run.agents.join(", ")}
      </p>
      <nav className="tabs">
        {isMarket ? (
          <Link
            to={`/markets/${encodeURIComponent(run.id)}`}
            className={here === "market" ? "on" : undefined}
          >
            rounds and analysis
          </Link>
        ) : (
          <>
            <Link to={runPath(run.id)} className={here === "overview" ? "on" : undefined}>
              analysis
            </Link>
            <Link to={runPath(run.id, "/episodes")} className={here === "episodes" ? "on" : undefined}>
              episodes
            </Link>
          </>
        )}
      </nav>
    </header>
  );
}

export function Json({ value }: { value: unknown }) {
  return <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
}
