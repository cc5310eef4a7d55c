// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { formatPrice } from "../../../environments/choice/prompt.ts";
import { formatUsd } from "../../../environments/kernel/money.ts";
import { clip } from "../format.ts";
import type { ShopCallLine, ShopEpisodeModel } from "../records/index.ts";
import { ClientShopEpisode } from "./ClientShopEpisode.tsx";
import { gridLayout, NegotiationGrid, revealedNegotiations } from "./NegotiationGrid.tsx";
import { type NegotiationReveal, wrapSegments } from "./NegotiationPanel.tsx";

export interface ShopEpisodeProps {
  model: ShopEpisodeModel;
  /** Tool calls shown so far; the outcome appears once all are. */
  step: number;
  width: number;
  height: number;
}

/** A call on one line; long arguments are cut so the result stays on screen. */
function callText(c: ShopCallLine, width: number): string {
  const where = c.step === null ? "  –" : `#${String(c.step).padStart(2)}`;
  const room = Math.max(16, Math.floor(width / 3));
  const args = c.args.length > room ? `${c.args.slice(0, room - 1)}…` : c.args;
  return `${where} m${c.turn} ${c.tool || "(no call)"}(${args}) → ${c.summary}`;
}

/**
 * With offers, a booking at an agreed price says so ahead of the constraint checks (the verdict
 * line above is full with the listing); a plain shop's lines are unchanged.
 */
function paidNote(model: ShopEpisodeModel): string {
  const b = model.booked;
  return b && model.paid !== null && model.paid !== b.price
    ? `paid ${formatUsd(model.paid)} by a deal (list ${formatPrice(b.price)}) · `
    : "";
}

/**
 * The verdict on a booking: on one line where it fits, else wrapped between its parts, so that the
 * booked listing's name is never cut.
 */
function verdictLines(model: ShopEpisodeModel, width: number): string[] {
  const b = model.booked;
  if (!b) return [];
  return wrapSegments(
    [
      `${model.success ? "✓ success" : "✗ failure"} — booked ${b.id} ${b.name}`,
      formatPrice(b.price),
      `${b.stars}★`,
      `${b.area} (page ${b.page}, rank ${b.rank})`,
    ],
    width,
  );
}

/** Rows the outcome takes: the verdict, the checks and the catalog line (3 also without a booking, as always). */
function outcomeRows(model: ShopEpisodeModel, width: number): number {
  return 2 + Math.max(1, verdictLines(model, width).length);
}

function Outcome({ model, width }: { model: ShopEpisodeModel; width: number }) {
  const b = model.booked;
  const verdict = model.success ? "✓ success" : "✗ failure";
  return (
    <Box flexDirection="column">
      {b ? (
        <>
          {verdictLines(model, width).map((line) => (
            <Text key={line} bold color={model.success ? "green" : "red"} wrap="truncate">
              {line}
            </Text>
          ))}
          <Text wrap="truncate">
            {paidNote(model)}
            {b.checks.length === 0
              ? "the request had no hard constraint"
              : b.checks.map((c) => `${c.met ? "✓" : "✗"} ${c.label}`).join("   ")}
          </Text>
        </>
      ) : (
        <Text
          bold
          color={model.success ? "green" : model.endReason === "gave-up" ? "yellow" : "red"}
          wrap="truncate"
        >
          {verdict} —{" "}
          {model.endReason === "gave-up"
            ? `gave up: ${model.giveUpReason ?? ""}`
            : `${model.endReason.replaceAll("-", " ")}${model.nonResponse ? `: ${model.nonResponse.reason}` : ""}${model.deadlock ? " · deadlock" : ""}`}
        </Text>
      )}
      <Text color="gray" wrap="truncate">
        {model.admissibleCount} admissible in the catalog
        {model.cheapestAdmissible === null ? "" : ` (cheapest ${formatPrice(model.cheapestAdmissible)})`} ·
        shown {model.shown}, opened {model.viewed}
      </Text>
    </Box>
  );
}

/**
 * One shop episode: the request with its constraints, each tool call with a one-line result (the
 * latest that fit), and the booked listing with ✓/✗ per constraint. In a design with offers, the
 * negotiations under the calls, each with its price ladder, growing with the calls shown.
 */
export function ShopEpisode({ model, step, width, height }: ShopEpisodeProps) {
  // With a client, the conversation runs between the calls (and beside any negotiations).
  if (model.client)
    return (
      <ClientShopEpisode
        model={{ ...model, client: model.client }}
        step={step}
        width={width}
        height={height}
      />
    );
  if (model.negotiations === null)
    return <PlainShopEpisode model={model} step={step} width={width} height={height} />;
  return <NegotiatingShopEpisode model={model} step={step} width={width} height={height} />;
}

function Calls({ calls, hidden, width }: { calls: ShopCallLine[]; hidden: number; width: number }) {
  return (
    <>
      {hidden > 0 ? <Text color="gray">… {hidden} earlier calls</Text> : null}
      {calls.map((c, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: calls are positions in a window
          key={hidden + i}
          wrap="truncate"
          color={c.step === null ? "gray" : c.ok ? undefined : "red"}
        >
          {clip(callText(c, width), width)}
        </Text>
      ))}
    </>
  );
}

function PlainShopEpisode({ model, step, width, height }: ShopEpisodeProps) {
  const shown = Math.max(0, Math.min(step, model.calls.length));
  const done = shown >= model.calls.length;
  // Rows: 1 header, the request, the calls, the outcome (or 1 of progress).
  const room = Math.max(2, height - 1 - model.request.length - (done ? outcomeRows(model, width) : 1));
  const visible = model.calls.slice(0, shown);
  const hidden = Math.max(0, visible.length - room + (visible.length > room ? 1 : 0));
  const window = visible.slice(hidden);
  return (
    <Box flexDirection="column" width={width}>
      <Text color="gray" wrap="truncate">
        {clip(`${model.taskId} · ${model.family} task · ${model.calls.length} calls`, width)}
      </Text>
      {model.request.map((line) => (
        <Text key={line} wrap="truncate">
          {clip(line, width)}
        </Text>
      ))}
      <Calls calls={window} hidden={hidden} width={width} />
      {shown === 0 ? <Text color="gray">(no call yet)</Text> : null}
      {done ? (
        <Outcome model={model} width={width} />
      ) : (
        <Text color="gray">
          call {shown} of {model.calls.length}
        </Text>
      )}
    </Box>
  );
}

/** Calls kept on screen however many negotiations there are (the panels take the rest). */
const MIN_CALL_ROWS = 2;

function NegotiatingShopEpisode({ model, step, width, height }: ShopEpisodeProps) {
  const live = model.live === true;
  const shown = live ? model.calls.length : Math.max(0, Math.min(step, model.calls.length));
  const done = !live && shown >= model.calls.length;
  const visible = model.calls.slice(0, shown);
  // The negotiations as far as the calls shown: moves up to the last step shown.
  const reveal: NegotiationReveal = {
    upToStep: live || done ? Number.POSITIVE_INFINITY : Math.max(0, ...visible.map((c) => c.step ?? 0)),
    over: done,
    deadlock: model.deadlock,
  };
  const negotiations = revealedNegotiations(model.negotiations ?? [], reveal);
  const callRows = Math.min(Math.max(1, visible.length), MIN_CALL_ROWS);
  const layoutFor = (request: string[]) => {
    // Rows: 1 header, the request, the calls, the negotiations, the outcome (or 1 of progress).
    const fixed = 1 + request.length + (done ? outcomeRows(model, width) : 1);
    return {
      request,
      fixed,
      grid:
        negotiations.length > 0
          ? gridLayout(negotiations, reveal, width, Math.max(1, height - fixed - callRows))
          : null,
    };
  };
  let fitted = layoutFor(model.request);
  if (fitted.grid && (fitted.grid.chartRows === 0 || fitted.grid.hidden.length > 0)) {
    // Short of rows: the request's lines run together (wrapped, never cut) to give the ladders room.
    const joined = layoutFor(
      wrapSegments(
        model.request.map((l) => l.replace(/^- /, "")),
        width,
      ),
    );
    if (joined.request.length < model.request.length) fitted = joined;
  }
  const { request, fixed, grid: layout } = fitted;
  const room = Math.max(1, height - fixed - (layout ? layout.rows : 1));
  const hidden = Math.max(0, visible.length - room + (visible.length > room ? 1 : 0));
  return (
    <Box flexDirection="column" width={width}>
      <Text color="gray" wrap="truncate">
        {clip(`${model.taskId} · ${model.family} task · ${model.calls.length} calls`, width)}
      </Text>
      {request.map((line) => (
        <Text key={line} wrap="truncate">
          {clip(line, width)}
        </Text>
      ))}
      <Calls calls={visible.slice(hidden)} hidden={hidden} width={width} />
      {shown === 0 ? <Text color="gray">(no call yet)</Text> : null}
      {layout ? (
        <NegotiationGrid negotiations={negotiations} reveal={reveal} width={width} layout={layout} />
      ) : (
        <Text color="gray">offers · no offer made{done ? "" : " yet"}</Text>
      )}
      {live ? (
        <Text color="cyan" wrap="truncate">
          {clip(
            `in progress · ${model.calls.length} calls · ${model.waiting ?? "the shopper is choosing its next call"}`,
            width,
          )}
        </Text>
      ) : done ? (
        <Outcome model={model} width={width} />
      ) : (
        <Text color="gray">
          call {shown} of {model.calls.length}
        </Text>
      )}
    </Box>
  );
}
