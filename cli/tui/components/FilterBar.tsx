// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Text } from "ink";
import { clip, count } from "../format.ts";
import type { ReplayFilter } from "../replay/source.ts";
import type { FilterChoice } from "../state/replay.ts";

/** The filters in use, each with the key that cycles it, and how many episodes match. */
export function FilterBar({
  filters,
  filter,
  matched,
  width,
}: {
  filters: readonly FilterChoice[];
  filter: ReplayFilter;
  matched: number | null;
  width: number;
}) {
  const parts = filters.map((f) => `[${f.hotkey}] ${f.label}: ${filter[f.key] ?? "all"}`);
  const n = matched === null ? "matching: …" : `${count(matched)} matching`;
  return (
    <Text wrap="truncate" color="cyan">
      {clip(`${n} · ${parts.join(" · ")} · [c] clear`, width)}
    </Text>
  );
}
