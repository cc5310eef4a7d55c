// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";
import { formatPrice } from "../../../environments/choice/prompt.ts";
import { clip } from "../format.ts";
import type { ShopCallLine, ShopEpisodeModel } from "../records/index.ts";

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

function Outcome({ model }: { model: ShopEpisodeModel }) {
  const b = model.booked;
  const verdict = model.success ? "✓ success" : "✗ failure";
  return (
    <Box flexDirection="column">
      {b ? (
        <>
          <Text bold color={model.success ? "green" : "red"} wrap="truncate">
            {`${verdict} — booked ${b.id} ${b.name} · ${formatPrice(b.price)} · ${b.stars}★ · ${b.area} (page ${b.page}, rank ${b.rank})`}
          </Text>
          <Text wrap="truncate">
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
            : `${model.endReason.replace("-", " ")}${model.nonResponse ? `: ${model.nonResponse.reason}` : ""}`}
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
 * latest that fit), and the booked listing with ✓/✗ per constraint.
 */
export function ShopEpisode({ model, step, width, height }: ShopEpisodeProps) {
  const shown = Math.max(0, Math.min(step, model.calls.length));
  const done = shown >= model.calls.length;
  // Rows: 1 header, the request, the calls, 3 of outcome (or 1 of progress).
  const room = Math.max(2, height - 1 - model.request.length - (done ? 3 : 1));
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
      {hidden > 0 ? <Text color="gray">… {hidden} earlier calls</Text> : null}
      {window.map((c, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: calls are positions in a window
          key={hidden + i}
          wrap="truncate"
          color={c.step === null ? "gray" : c.ok ? undefined : "red"}
        >
          {clip(callText(c, width), width)}
        </Text>
      ))}
      {shown === 0 ? <Text color="gray">(no call yet)</Text> : null}
      {done ? (
        <Outcome model={model} />
      ) : (
        <Text color="gray">
          call {shown} of {model.calls.length}
        </Text>
      )}
    </Box>
  );
}
