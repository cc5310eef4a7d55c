/**
 * A figure of the report: its Vega-Lite spec drawn here (Vega loads with the first figure, from
 * charts.js, and evaluates expressions with its interpreter: no eval under the page's policy), or
 * an SVG the analysis drew, shown as an image (an image runs no script).
 */
import { useEffect, useRef, useState } from "react";
import type { FigureView } from "../../api-types.ts";

interface Charts {
  draw(el: HTMLElement, spec: Record<string, unknown>): Promise<() => void>;
}

declare global {
  interface Window {
    bazaarCharts?: Charts;
  }
}

let charts: Promise<Charts> | null = null;

function loadCharts(): Promise<Charts> {
  charts ??= new Promise<Charts>((resolve, reject) => {
    if (window.bazaarCharts) return resolve(window.bazaarCharts);
    const own = document.querySelector<HTMLScriptElement>('script[src$="app.js"]');
    const s = document.createElement("script");
    s.src = own ? own.src.replace(/app\.js$/, "charts.js") : "charts.js";
    s.onload = () =>
      window.bazaarCharts ? resolve(window.bazaarCharts) : reject(new Error("charts did not load"));
    s.onerror = () => reject(new Error("charts did not load"));
    document.head.appendChild(s);
  });
  return charts;
}

export function Chart({ spec, title }: { spec: Record<string, unknown>; title: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let done: (() => void) | null = null;
    let alive = true;
    loadCharts()
      .then((c) => (alive && ref.current ? c.draw(ref.current, spec) : null))
      .then((finalize) => {
        done = finalize;
        if (!alive) finalize?.();
      })
      .catch((err: Error) => setError(err.message));
    return () => {
      alive = false;
      done?.();
    };
  }, [spec]);
  return (
    <div className="chart" role="img" aria-label={title}>
      <div ref={ref} />
      {error && <p className="error">figure not drawn: {error}</p>}
    </div>
  );
}

function svgImage(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return `data:image/svg+xml;base64,${btoa(bin)}`;
}

export function Figure({ figure }: { figure: FigureView }) {
  return (
    <figure className="figure">
      {figure.spec ? (
        <Chart spec={figure.spec} title={figure.title} />
      ) : figure.svg ? (
        <img src={svgImage(figure.svg)} alt={figure.title} />
      ) : null}
      <figcaption>{figure.title}</figcaption>
    </figure>
  );
}
