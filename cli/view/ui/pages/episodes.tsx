import type { EpisodePage, RunPage } from "../../api-types.ts";
import { ErrorNote, Loading, ProgressBar, RunHeader } from "../components/common.tsx";
import { count } from "../format.ts";
import { useLoad } from "../hooks.ts";
import { Link, navigate, runPath } from "../router.tsx";

export function EpisodesPage({ runId, query }: { runId: string; query: URLSearchParams }) {
  const base = `/runs/${encodeURIComponent(runId)}`;
  const run = useLoad<RunPage>(base, 2000, (d) => d === null || d.run.active);
  const qs = query.toString();
  const done = run.data?.run.done ?? 0;
  // A live run's list is read again as trials arrive (the first page, or the newest).
  const list = useLoad<EpisodePage>(
    `${base}/episodes${qs ? `?${qs}` : ""}`,
    1000,
    (d) => d === null || d.indexing !== null,
  );
  const page = list.data;
  const set = (key: string, value: string) => {
    const q = new URLSearchParams(query);
    for (const k of ["after", "before", "page", "failed"]) q.delete(k);
    if (value === "") q.delete(key);
    else q.set(key, value);
    const s = q.toString();
    navigate(runPath(runId, `/episodes${s ? `?${s}` : ""}`));
  };
  return (
    <main>
      {run.data && <RunHeader run={run.data.run} here="episodes" />}
      <ErrorNote error={list.error ?? run.error} />
      {run.data && (
        <form className="filters" onSubmit={(e) => e.preventDefault()}>
          {run.data.facets.map((f) => (
            <label key={f.key}>
              {f.label}
              <select
                value={query.get(`f.${f.key}`) ?? ""}
                onChange={(e) => set(`f.${f.key}`, e.target.value)}
                name={f.key}
              >
                <option value="">all</option>
                {f.values.map((v) => (
                  <option key={v.value} value={v.value}>
                    {v.label}
                  </option>
                ))}
              </select>
            </label>
          ))}
          <label>
            sort
            <select
              value={query.get("sort") ?? "seq"}
              onChange={(e) => set("sort", e.target.value === "seq" ? "" : e.target.value)}
              name="sort"
            >
              <option value="seq">planned order</option>
              <option value="-seq">newest first</option>
              {run.data.sorts.flatMap((s) => [
                <option key={s.key} value={s.key}>
                  {s.label} ↑
                </option>,
                <option key={`-${s.key}`} value={`-${s.key}`}>
                  {s.label} ↓
                </option>,
              ])}
            </select>
          </label>
          {run.data.run.failed > 0 && (
            <Link to={runPath(runId, "/episodes?failed=yes")} className="failed-link">
              failed trials ({count(run.data.run.failed)})
            </Link>
          )}
        </form>
      )}
      {!page && !list.error && <Loading what="episodes" />}
      {page?.indexing && (
        <div data-testid="indexing">
          <p>Reading the run to sort and filter it…</p>
          <ProgressBar done={page.indexing.done} total={page.indexing.total} />
        </div>
      )}
      {page?.failed && (
        <table className="data">
          <thead>
            <tr>
              <th className="num">seq</th>
              <th>agent</th>
              <th>kind</th>
              <th>what failed</th>
              <th className="num">turns</th>
            </tr>
          </thead>
          <tbody>
            {page.failed.map((f) => (
              <tr key={f.seq}>
                <td className="num">{f.seq}</td>
                <td>{f.agent}</td>
                <td>{f.kind}</td>
                <td>{f.message}</td>
                <td className="num">{f.turns}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page && !page.indexing && !page.failed && (
        <>
          <p className="meta" data-testid="matched">
            {page.matched === null ? "" : `${count(page.matched)} matching`}
            {page.offset !== null &&
              page.items.length > 0 &&
              ` · ${count(page.offset + 1)}–${count(page.offset + page.items.length)}`}
            {run.data?.run.active && ` · ${count(done)} stored so far`}
          </p>
          <table className="data episodes">
            <thead>
              <tr>
                <th className="num">#</th>
                <th>agent</th>
                <th>outcome</th>
                <th>detail</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((e) => (
                <tr key={e.seq} className={e.error ? "error-row" : e.nonResponse ? "nr-row" : undefined}>
                  <td className="num">
                    <Link to={runPath(runId, `/episodes/${e.seq}`)}>{e.seq}</Link>
                  </td>
                  <td>{e.agent}</td>
                  <td>
                    <Link to={runPath(runId, `/episodes/${e.seq}`)}>{e.outcome}</Link>
                  </td>
                  <td className="detail">{e.error ?? e.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="pager">
            {page.prev !== null && <Link to={runPath(runId, `/episodes?${page.prev}`)}>← previous</Link>}
            {page.next !== null && <Link to={runPath(runId, `/episodes?${page.next}`)}>next →</Link>}
          </nav>
        </>
      )}
    </main>
  );
}
