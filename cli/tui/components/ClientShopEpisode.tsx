// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { formatPrice } from "../../../environments/choice/prompt.ts";
import { formatUsd } from "../../../environments/kernel/money.ts";
import { wrap } from "../format.ts";
import type { ShopEpisodeModel } from "../records/index.ts";
import {
  burdenSegments,
  clientLine,
  requirementSegments,
  type ShopClientModel,
  scoreSegments,
} from "../records/shop-client.ts";
import { type StreamRow, type StreamTone, streamBlocks, streamWindow } from "./conversation.ts";
import { gridLayout, NegotiationGrid, revealedNegotiations } from "./NegotiationGrid.tsx";
import { type NegotiationReveal, wrapSegments } from "./NegotiationPanel.tsx";

export interface ClientShopEpisodeProps {
  model: ShopEpisodeModel & { client: ShopClientModel };
  /** Tool calls shown so far (replay); the outcome and the score appear once all are. */
  step: number;
  width: number;
  height: number;
}

/** A row outside the stream: the header, the hidden requirements, the outcome. */
interface Line {
  text: string;
  color?: string;
  bold?: boolean;
}

/** Rows the stream keeps before the optional lines give way (the hidden requirements at the top, the catalog line). */
const MIN_STREAM = 5;

const TONE: Readonly<Record<StreamTone, string | undefined>> = {
  call: undefined,
  failed: "red",
  "not-run": "gray",
  agent: "green",
  client: "magenta",
  machine: "gray",
  fault: "red",
  note: "gray",
};

function lines(texts: readonly string[], style: Omit<Line, "text"> = {}): Line[] {
  return texts.map((text) => ({ text, ...style }));
}

/** The episode and who the shopper works for, wrapped between its parts. */
function headerLines(model: ShopEpisodeModel, client: ShopClientModel, width: number): Line[] {
  return lines(
    wrapSegments(
      [
        `${model.taskId} · ${model.family} task · ${model.calls.length} calls`,
        // The shopper is named in the title ("<shopper> for <client>").
        clientLine(client),
      ],
      width,
    ),
    { color: "gray" },
  );
}

/** The client's hidden requirements (the shopper learns them only by asking), run together and wrapped. */
function hiddenLines(model: ShopEpisodeModel, width: number): Line[] {
  const parts = model.request.map((l) => l.replace(/^- /, ""));
  if (parts.length === 0) return [{ text: "hidden requirements: none", color: "gray" }];
  return lines(wrapSegments([`hidden requirements — ${parts[0]}`, ...parts.slice(1)], width));
}

function endText(model: ShopEpisodeModel): string {
  if (model.endReason === "gave-up") return `gave up: ${model.giveUpReason ?? ""}`;
  if (model.endReason === "client-ended")
    return "the client ended the conversation (asked again after its patience ran out)";
  return `${model.endReason.replaceAll("-", " ")}${model.nonResponse ? `: ${model.nonResponse.reason}` : ""}${model.deadlock ? " · deadlock" : ""}`;
}

/** The outcome, wrapped (the listing's name and the give-up reason whole), then the client's score. */
function outcomeLines(
  model: ShopEpisodeModel,
  client: ShopClientModel,
  width: number,
): { main: Line[]; catalog: Line[] } {
  const b = model.booked;
  const verdict = model.success ? "✓ success" : "✗ failure";
  const main: Line[] = [];
  if (b) {
    const color = model.success ? "green" : "red";
    main.push(
      ...lines(
        wrapSegments(
          [
            `${verdict} — booked ${b.id} ${b.name}`,
            formatPrice(b.price),
            `${b.stars}★`,
            `${b.area} (page ${b.page}, rank ${b.rank})`,
          ],
          width,
        ),
        { color, bold: true },
      ),
    );
    const paid =
      model.paid !== null && model.paid !== b.price
        ? [`paid ${formatUsd(model.paid)} by a deal (list ${formatPrice(b.price)})`]
        : [];
    const checks =
      b.checks.length === 0
        ? ["the request had no hard constraint"]
        : b.checks.map((c) => `${c.met ? "✓" : "✗"} ${c.label}`);
    main.push(...lines(wrapSegments([...paid, ...checks], width, "   ")));
  } else {
    const color = model.success ? "green" : model.endReason === "gave-up" ? "yellow" : "red";
    main.push(...lines(wrap(`${verdict} — ${endText(model)}`, width), { color, bold: true }));
  }
  const s = client.score;
  if (s) {
    main.push(...lines(wrapSegments(scoreSegments(s), width), { color: s.regret > 0 ? "yellow" : "green" }));
    main.push(...lines(wrapSegments(requirementSegments(s), width)));
    main.push(...lines(wrapSegments(burdenSegments(s), width), { color: s.faults > 0 ? "red" : undefined }));
  }
  const catalog = lines(
    wrapSegments(
      [
        `${model.admissibleCount} admissible in the catalog${model.cheapestAdmissible === null ? "" : ` (cheapest ${formatPrice(model.cheapestAdmissible)})`}`,
        `shown ${model.shown}, opened ${model.viewed}`,
      ],
      width,
    ),
    { color: "gray" },
  );
  return { main, catalog };
}

function Rows({ rows }: { rows: readonly Line[] }) {
  return (
    <>
      {rows.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in a layout
        <Text key={i} color={l.color} bold={l.bold} wrap="truncate">
          {l.text}
        </Text>
      ))}
    </>
  );
}

function Stream({ rows }: { rows: readonly StreamRow[] }) {
  return <Rows rows={rows.map((r) => ({ text: r.text, color: TONE[r.tone] }))} />;
}

/**
 * A shop episode with a client: who plays it, its hidden requirements, the conversation drawn in
 * order between the tool calls it interleaves with (each message attributed and wrapped, faults
 * under the reply that has them), the negotiations where listings take offers, and — once over —
 * the outcome with the client's score (regret, surplus, the best admissible listing, each hidden
 * requirement learned, met by luck or not, burden). In flight it grows with the episode's turns;
 * in replay with the calls shown.
 */
export function ClientShopEpisode({ model, step, width, height }: ClientShopEpisodeProps) {
  const client = model.client;
  const live = model.live === true;
  const shown = live ? model.calls.length : Math.max(0, Math.min(step, model.calls.length));
  const done = !live && shown >= model.calls.length;
  const visible = model.calls.slice(0, shown);
  const upToStep = live || done ? Number.POSITIVE_INFINITY : Math.max(0, ...visible.map((c) => c.step ?? 0));
  const blocks = streamBlocks(visible, client.messages, width, {
    upToStep,
    answering: live ? client.answering : null,
  });
  const streamTotal = blocks.reduce((n, b) => n + b.rows.length, 0);

  const header = headerLines(model, client, width);
  const hidden = hiddenLines(model, width);
  const outcome = done ? outcomeLines(model, client, width) : null;
  const footer: Line[] = live
    ? lines(
        wrap(
          `in progress · ${model.calls.length} calls · ${model.waiting ?? "the shopper is choosing its next call"}`,
          width,
        ),
        {
          color: "cyan",
        },
      )
    : outcome
      ? outcome.main
      : [{ text: `call ${shown} of ${model.calls.length}`, color: "gray" }];

  const reveal: NegotiationReveal = { upToStep, over: done, deadlock: model.deadlock };
  const negotiations = model.negotiations ? revealedNegotiations(model.negotiations, reveal) : null;

  // Short of rows, the hidden requirements at the top give way once the score below names each
  // of them, then the catalog line: the conversation keeps a few rows.
  let showHidden = true;
  let showCatalog = outcome !== null;
  const fixed = () =>
    header.length +
    (showHidden ? hidden.length : 0) +
    footer.length +
    (showCatalog ? (outcome?.catalog.length ?? 0) : 0);
  const want = Math.min(MIN_STREAM, streamTotal);
  const gridRows = (maxRows: number) =>
    negotiations === null
      ? 0
      : negotiations.length > 0
        ? gridLayout(negotiations, reveal, width, maxRows).rows
        : 1;
  const left = () => height - fixed() - gridRows(Math.max(1, height - fixed() - want));
  if (left() < want && client.score) showHidden = false;
  if (left() < want) showCatalog = false;
  const layout =
    negotiations && negotiations.length > 0
      ? gridLayout(negotiations, reveal, width, Math.max(1, height - fixed() - want))
      : null;
  const room = Math.max(1, height - fixed() - (negotiations === null ? 0 : layout ? layout.rows : 1));

  return (
    <Box flexDirection="column" width={width}>
      <Rows rows={header} />
      {showHidden ? <Rows rows={hidden} /> : null}
      {blocks.length === 0 ? (
        <Text color="gray">(nothing said yet)</Text>
      ) : (
        <Stream rows={streamWindow(blocks, room)} />
      )}
      {negotiations === null ? null : layout && negotiations ? (
        <NegotiationGrid negotiations={negotiations} reveal={reveal} width={width} layout={layout} />
      ) : (
        <Text color="gray">offers · no offer made{done ? "" : " yet"}</Text>
      )}
      <Rows rows={footer} />
      {showCatalog && outcome ? <Rows rows={outcome.catalog} /> : null}
    </Box>
  );
}
