import { useState } from "react";
import type { RunsPage } from "../../api-types.ts";
import { Blocks, ErrorNote, Live, Loading, ProgressBar } from "../components/common.tsx";
import { count, when } from "../format.ts";
import { useLoad } from "../hooks.ts";
import { Link, navigate, runPath } from "../router.tsx";

export function RunsList() {
  const runs = useLoad<RunsPage>("/runs", 1500);
  return (
    <main>
      <h1>Runs</h1>
      <ErrorNote error={runs.error} />
      {!runs.data && !runs.error && <Loading what="the runs" />}
      {runs.data && (
        <>
          <p className="meta">
            {count(runs.data.runs.length)} runs in <code>{runs.data.store}</code>
            {runs.data.bundle ? " (a bundle: as it was when written)" : " · updates live"}
          </p>
          <table className="data runs">
            <thead>
              <tr>
                <th>run</th>
                <th>environment</th>
                <th>agents</th>
                <th>progress</th>
                <th className="num">non-resp.</th>
                <th className="num">failed</th>
                <th>headline</th>
                <th>updated</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.runs.map((r) => (
                <tr key={r.id} data-run={r.id}>
                  <td>
                    <Link to={r.parts ? `/markets/${encodeURIComponent(r.id)}` : runPath(r.id)}>{r.id}</Link>{" "}
                    <Live active={r.active} />
                  </td>
                  <td>{r.env}</td>
                  <td className="agents">{r.agents.join(", ")}</td>
                  <td>
                    <ProgressBar done={r.done} total={r.total} />
                  </td>
                  <td className="num">{count(r.nonResponses)}</td>
                  <td className="num">{count(r.failed)}</td>
                  <td className="headline">
                    {r.headline ? (
                      <Blocks blocks={r.headline} compact />
                    ) : (
                      <span className="dim">open the run</span>
                    )}
                  </td>
                  <td>{when(r.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {!runs.data.bundle && <CompareForm runs={runs.data} />}
        </>
      )}
    </main>
  );
}

function CompareForm({ runs }: { runs: RunsPage }) {
  const options = runs.runs
    .filter((r) => r.parts === null)
    .flatMap((r) => [r.id, ...(r.agents.length > 1 ? r.agents.map((a) => `${r.id}::${a}`) : [])]);
  const [a, setA] = useState("");
  const [b, setB] = useState("");
  if (options.length < 2) return null;
  return (
    <section>
      <h2>Compare</h2>
      <p className="meta">two runs, or two agents of a run, on the same tasks</p>
      <form
        className="compare-form"
        onSubmit={(e) => {
          e.preventDefault();
          const q = new URLSearchParams({ a: a || options[0]!, b: b || options[1]! });
          navigate(`/compare?${q.toString()}`);
        }}
      >
        <select aria-label="side A" value={a || options[0]} onChange={(e) => setA(e.target.value)}>
          {options.map((o) => (
            <option key={o} value={o}>
              {o.replace("::", " · ")}
            </option>
          ))}
        </select>
        <span> vs </span>
        <select aria-label="side B" value={b || options[1]} onChange={(e) => setB(e.target.value)}>
          {options.map((o) => (
            <option key={o} value={o}>
              {o.replace("::", " · ")}
            </option>
          ))}
        </select>
        <button type="submit">compare</button>
      </form>
    </section>
  );
}
