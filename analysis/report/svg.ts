/**
 * Vega-Lite specs rendered to SVG headlessly: Vega's "none" renderer with its SVG string output
 * needs no canvas and no browser (text widths are estimated, which is fine for reports). Vega loads
 * with the first figure (it takes most of a second): an analysis without a report never loads it.
 */
import type * as vegaLite from "vega-lite";

/** A Vega-Lite spec (kept loose on purpose: the builders in charts.ts make well-formed ones). */
export type VegaLiteSpec = Record<string, unknown>;

export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const [vega, { compile }] = await Promise.all([import("vega"), import("vega-lite")]);
  const compiled = compile(spec as unknown as vegaLite.TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
