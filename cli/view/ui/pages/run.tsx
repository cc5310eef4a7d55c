import type { AnalysisView, LivePage, RunPage } from "../../api-types.ts";
import { Blocks, ErrorNote, Json, Loading, ProgressBar, RunHeader, Section } from "../components/common.tsx";
import { Figure } from "../components/figure.tsx";
import { count, seconds } from "../format.ts";
import { useLoad } from "../hooks.ts";
import { Link, runPath } from "../router.tsx";
import { EpisodeBody } from "./episode.tsx";

export function AnalysisSection({ runId }: { runId: string }) {
  const a = useLoad<AnalysisView>(
    `/runs/${encodeURIComponent(runId)}/analysis`,
    1000,
    (d) => d === null || d.status === "running",
  );
  const v = a.data;
  return (
    <Section title="Analysis" id="analysis">
      <ErrorNote error={a.error} />
      {!v && !a.error && <Loading what="the analysis" />}
      {v?.status === "running" && (
        <div className="computing" data-testid="analysis-progress">
          <p>
            Computing the analysis ({v.progress?.phase ?? "starting"}
            {v.progress ? `, ${seconds(v.progress.elapsedMs)}` : ""})…
          </p>
          {v.progress && v.progress.total > 0 && (
            <ProgressBar done={v.progress.read} total={v.progress.total} />
          )}
        </div>
      )}
      {v?.status === "none" && <p className="dim">No stored trials to analyse yet.</p>}
      {v?.error && <p className="error">{v.error}</p>}
      {v && v.blocks.length > 0 && (
        <div data-testid="analysis">
          <p className="meta">
            of {count(v.trials)} trials{v.stale ? " (the run has more now: recomputing)" : ""}
            {v.tookMs !== null ? ` · computed in ${seconds(v.tookMs)}` : ""} · the same as{" "}
            <code>bazaar analyze {runId}</code>
          </p>
          <h3>Headline</h3>
          <Blocks blocks={v.headline} />
          {v.figures.length > 0 && (
            <>
              <h3>Figures</h3>
              <div className="figures">
                {v.figures.map((f) => (
                  <Figure key={f.file} figure={f} />
                ))}
              </div>
            </>
          )}
          <h3>Every table</h3>
          <Blocks blocks={v.blocks} />
          {v.notes.map((n) => (
            <p key={n} className="note">
              {n}
            </p>
          ))}
        </div>
      )}
    </Section>
  );
}

function InFlight({ runId }: { runId: string }) {
  const live = useLoad<LivePage>(
    `/runs/${encodeURIComponent(runId)}/live`,
    1500,
    (d) => d === null || d.run.active,
  );
  if (!live.data || live.data.inFlight.length === 0) return null;
  return (
    <Section title={`Episodes in flight (${live.data.inFlight.length})`}>
      {live.data.inFlight.map((e) => (
        <details key={e.seq} className="inflight" open={live.data!.inFlight.length <= 2}>
          <summary>
            #{e.seq} {e.agent} · {e.turns.length} turns so far
          </summary>
          <EpisodeBody
            e={{
              runId,
              env: e.model.env,
              seq: e.seq,
              model: e.model,
              results: null,
              sellerTurn: null,
              record: {},
              prev: null,
              next: null,
            }}
          />
        </details>
      ))}
    </Section>
  );
}

export function RunOverview({ runId }: { runId: string }) {
  const run = useLoad<RunPage>(`/runs/${encodeURIComponent(runId)}`, 1500, (d) => d === null || d.run.active);
  return (
    <main>
      <ErrorNote error={run.error} />
      {!run.data && !run.error && <Loading what="the run" />}
      {run.data && (
        <>
          <RunHeader run={run.data.run} here="overview" />
          <p>
            <Link to={runPath(runId, "/episodes")}>Browse its {count(run.data.run.done)} episodes →</Link>
            {run.data.run.failed > 0 && (
              <>
                {" · "}
                <Link to={runPath(runId, "/episodes?failed=yes")}>
                  its {count(run.data.run.failed)} failed trials
                </Link>
              </>
            )}
          </p>
          <InFlight runId={runId} />
          <AnalysisSection runId={runId} />
          <Section title="Design and identity">
            <Json value={run.data.config} />
          </Section>
        </>
      )}
    </main>
  );
}
