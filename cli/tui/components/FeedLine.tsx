// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Text } from "ink";
import { clip, count } from "../format.ts";
import type { FeedItem } from "../state/dashboard.ts";

/** A finished episode in the feed: seq, agent, outcome, detail — or how many were not listed. */
export function FeedLine({ item, width }: { item: FeedItem; width: number }) {
  if (item.kind === "more") {
    return <Text color="gray">{clip(`  … ${count(item.count)} more finished`, width)}</Text>;
  }
  const s = item.summary;
  const text = `#${String(s.seq).padEnd(6)} ${clip(s.agent, 16).padEnd(16)} ${clip(s.outcome, 22).padEnd(22)} ${s.detail}`;
  return (
    <Text color={s.error ? "red" : s.nonResponse ? "yellow" : undefined} wrap="truncate">
      {clip(text, width)}
    </Text>
  );
}
