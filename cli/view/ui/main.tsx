/**
 * The browser app of `bazaar view`: pages of runs, a run's analysis and figures, its episodes, one
 * episode, a market's rounds and a comparison. It only shows what the server (or a bundle) sends.
 */
import { createRoot } from "react-dom/client";
import { CompareView } from "./pages/compare.tsx";
import { EpisodePage } from "./pages/episode.tsx";
import { EpisodesPage } from "./pages/episodes.tsx";
import { MarketView } from "./pages/market.tsx";
import { RunOverview } from "./pages/run.tsx";
import { RunsList } from "./pages/runs.tsx";
import { type Route, useRoute } from "./router.tsx";

function page(route: Route) {
  const parts = route.path.split("/").filter(Boolean).map(decodeURIComponent);
  const [head, id, sub, seq] = parts;
  if (head === "runs" && id !== undefined && sub === undefined) return <RunOverview key={id} runId={id} />;
  if (head === "runs" && id !== undefined && sub === "episodes" && seq === undefined)
    return <EpisodesPage key={id} runId={id} query={route.query} />;
  if (head === "runs" && id !== undefined && sub === "episodes" && seq !== undefined && /^\d+$/.test(seq))
    return <EpisodePage key={`${id}/${seq}`} runId={id} seq={Number(seq)} />;
  if (head === "markets" && id !== undefined) return <MarketView key={id} id={id} />;
  if (head === "compare") return <CompareView query={route.query} />;
  if (parts.length === 0) return <RunsList />;
  return (
    <main>
      <p className="error">No such page: {route.path}</p>
    </main>
  );
}

function App() {
  const route = useRoute();
  return (
    <>
      <div className="topbar">
        <a
          href={route.path === "/" ? undefined : document.querySelector("meta[http-equiv]") ? "#/" : "/"}
          className="brand"
        >
          bazaar view
        </a>
      </div>
      {page(route)}
    </>
  );
}

createRoot(document.getElementById("root")!).render(<App />);
