import { UserError } from "../../environments/kernel/errors.ts";
import { copyRuns } from "../../environments/store/copy.ts";
import { Store } from "../../environments/store/index.ts";
import { type Output, printJson } from "../output.ts";
import { shownStore } from "../store-option.ts";
import { renderTable } from "../table.ts";

const n = (x: number) => x.toLocaleString("en-US");

/** `bazaar store copy <from> <to>`: runs between stores, in one transaction. */
export function copyStore(
  fromLoc: string,
  toLoc: string,
  o: { run?: string[]; cache?: boolean; json?: boolean },
  out: Output,
) {
  if (shownStore(fromLoc) === shownStore(toLoc)) {
    throw new UserError(
      `${shownStore(fromLoc)} is both the source and the target`,
      "copy into another store",
    );
  }
  const from = Store.open(fromLoc, { create: false, readonly: true });
  try {
    const to = Store.open(toLoc, { create: true });
    try {
      const result = copyRuns(from, to, { runs: o.run, cache: o.cache });
      if (o.json) return printJson(out, { from: from.path, to: to.path, ...result });
      if (result.runs.length === 0) return out.log(`no runs in ${from.path}: nothing to copy`);
      out.log(
        renderTable(
          ["run", "trials", "written", "failed", "in target"],
          result.runs.map((r) => [r.id, n(r.trials), n(r.added), n(r.failed), r.created ? "new" : "had it"]),
        ),
      );
      const added = result.runs.reduce((a, r) => a + r.added, 0);
      out.log(
        `copied ${result.runs.length} run${result.runs.length === 1 ? "" : "s"} from ${from.path} to ${to.path}: ${n(added)} trials written${o.cache ? `, ${n(result.cacheEntries)} cached responses` : ""}`,
      );
    } finally {
      to.close();
    }
  } finally {
    from.close();
  }
}
