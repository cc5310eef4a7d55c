import { importPriceBench } from "../../datasets/pricebench/index.ts";
import { Store } from "../../environments/store/index.ts";
import { type Output, printJson } from "../output.ts";
import { storeFlag } from "../store-option.ts";
import { renderTable } from "../table.ts";

/** `bazaar import pricebench <dir>`: a PriceBench release as one choice run per model. */
export function importPriceBenchRuns(
  dir: string,
  o: { store: string; models?: string; json?: boolean },
  out: Output,
) {
  const models = o.models
    ?.split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  const result = importPriceBench(dir, () => Store.open(o.store, { create: true }), { models });
  if (o.json) return printJson(out, { store: o.store, ...result });
  const n = (x: number) => x.toLocaleString("en-US");
  out.log(
    renderTable(
      ["run", "agent", "answers", "non-resp.", "unanswered (bin/ter/five)", "new"],
      result.runs.map((r) => [
        r.runId,
        r.agent,
        n(r.responses),
        n(r.nonResponses),
        `${r.unanswered.binary}/${r.unanswered.ternary}/${r.unanswered.five}`,
        r.created ? "yes" : "already stored",
      ]),
    ),
  );
  for (const r of result.runs)
    for (const o of r.oddRows)
      out.log(
        `set apart in ${o.file}: ${o.rows} — ${o.why}; kept out of every fit, counted only by the reference convention's triage (as the release's triage counts them)`,
      );
  const first = result.runs[0]?.runId;
  if (first)
    out.log(
      [
        "",
        `analyze one model: bazaar analyze ${first}${storeFlag(o.store)}`,
        `all of them together: bazaar analyze ${first} --with-runs 'pricebench-*'${storeFlag(o.store)}`,
        `your model on the same tasks: bazaar run choice --tasks ${dir} --agent <agent>${storeFlag(o.store)}, then analyze its run --with-runs 'pricebench-*'`,
      ].join("\n"),
    );
}
