// biome-ignore-all lint/suspicious/noArrayIndexKey: these lists are drawn once from a record and never reordered
/**
 * One episode, per environment: what the agent saw and did, and how it ended — every text from the
 * trial shown as text (React escapes it; nothing here sets HTML).
 */
import type { BargainEpisodeModel } from "../../../tui/records/bargain.ts";
import type { ChoiceEpisodeModel } from "../../../tui/records/choice.ts";
import type { CueEpisodeModel } from "../../../tui/records/cue.ts";
import type { ElicitEpisodeModel } from "../../../tui/records/elicit.ts";
import type { GenericEpisodeModel } from "../../../tui/records/generic.ts";
import type { ShopEpisodeModel } from "../../../tui/records/shop.ts";
import type {
  EpisodePageData,
  RunPage,
  SellerTurnView,
  ShopCallResult,
  ShopCardView,
} from "../../api-types.ts";
import { ErrorNote, Json, Loading, RunHeader, Section } from "../components/common.tsx";
import { Ladder } from "../components/ladder.tsx";
import { usd } from "../format.ts";
import { useLoad } from "../hooks.ts";
import { Link, runPath } from "../router.tsx";

function NonResponse({ nr }: { nr: { reason: string; raw: string } | null }) {
  if (!nr) return null;
  return (
    <div className="nonresponse">
      <p>
        <strong>non-response:</strong> {nr.reason}
      </p>
      {nr.raw && <pre className="said">{nr.raw}</pre>}
    </div>
  );
}

function Replies({ replies }: { replies: string[] }) {
  return (
    <>
      {replies.map((r, i) => (
        <div key={i} className="message agent">
          <div className="who">agent{replies.length > 1 ? ` (answer ${i + 1})` : ""}</div>
          <pre className="said">{r}</pre>
        </div>
      ))}
    </>
  );
}

function ChoiceView({ m }: { m: ChoiceEpisodeModel }) {
  return (
    <>
      <p className="facts">
        task <code>{m.taskId}</code> · {m.taskKind} · prompt {m.variant} · answer{" "}
        <strong data-testid="outcome">
          {m.chosenSlot === null ? "none" : m.cards[m.chosenSlot]?.letter}
        </strong>
      </p>
      <Section title="The prompt">
        <pre className="said system">{m.system}</pre>
        <pre className="said">{m.intro}</pre>
        <div className="cards">
          {m.cards.map((c, i) => (
            <pre key={c.letter} className={i === m.chosenSlot ? "card chosen" : "card"}>
              {c.lines.join("\n")}
            </pre>
          ))}
        </div>
        <pre className="said">{m.instruction}</pre>
      </Section>
      <Section title="The answer and its parse">
        <Replies replies={m.replies} />
        <p>
          parsed:{" "}
          {m.chosenSlot === null
            ? "no option"
            : `option ${m.cards[m.chosenSlot]?.letter} — ${m.cards[m.chosenSlot]?.brief}`}
        </p>
        <NonResponse nr={m.nonResponse} />
      </Section>
    </>
  );
}

function CueView({ m }: { m: CueEpisodeModel }) {
  return (
    <>
      <p className="facts">
        condition <strong>{m.condition}</strong> · {m.category} · premium{" "}
        {m.premium === null ? "—" : `${(100 * m.premium).toFixed(1)}%`} · answer{" "}
        <strong data-testid="outcome">
          {m.chosenSlot === null
            ? "none"
            : `${m.cards[m.chosenSlot]?.letter} (${m.choseCued ? "the cued product" : "the other"})`}
        </strong>
      </p>
      <Section title="The pair">
        <div className="cards two">
          {m.cards.map((c, i) => (
            <div key={c.letter} className={i === m.chosenSlot ? "card chosen" : "card"}>
              {c.cued && <span className="badge">cued</span>}
              <pre>{c.lines.join("\n")}</pre>
            </div>
          ))}
        </div>
      </Section>
      <Section title="The answer">
        <Replies replies={m.replies} />
        <NonResponse nr={m.nonResponse} />
      </Section>
    </>
  );
}

function BargainView({ m }: { m: BargainEpisodeModel }) {
  return (
    <>
      <p className="facts">
        scenario <code>{m.scenarioId}</code> · {m.product} ({m.category}) · {m.interest} · list{" "}
        {usd(m.listedPrice)} · budget B {usd(m.budget)} · cost C {usd(m.cost)} · buyer {m.buyer} · seller{" "}
        {m.seller}
      </p>
      <p className="facts">
        outcome <strong data-testid="outcome">{m.outcome}</strong>
        {m.dealPrice !== null && ` at ${usd(m.dealPrice)}`} · ended by {m.endedBy}
        {m.invalidSide && ` · invalid: the ${m.invalidSide}${m.invalidReason ? ` (${m.invalidReason})` : ""}`}
        {m.profits &&
          ` · profits: buyer ${usd(m.profits.buyer)} (${m.profits.normalizedBuyer.toFixed(2)}), seller ${usd(m.profits.seller)} (${m.profits.normalizedSeller.toFixed(2)})`}
      </p>
      <Section title="Price ladder">
        <Ladder
          messages={m.messages}
          budget={m.budget}
          cost={m.cost}
          listPrice={m.listedPrice}
          deal={m.dealPrice}
        />
      </Section>
      <Section title="Dialogue">
        {m.messages.map((msg, i) => (
          <div key={i} className={`message ${msg.role}`}>
            <div className="who">
              turn {msg.turn} · {msg.role} · {msg.action}
              {msg.price !== null && ` ${usd(msg.price)}`}
            </div>
            {msg.talk && <pre className="said">{msg.talk}</pre>}
          </div>
        ))}
      </Section>
    </>
  );
}

function ElicitView({ m }: { m: ElicitEpisodeModel }) {
  return (
    <>
      <p className="facts">
        {m.queryType} query <code>{m.queryId}</code> · group {m.group} · {m.domain} · number{" "}
        <strong data-testid="outcome">{m.value === null ? "none" : usd(m.value)}</strong>
      </p>
      <Section title="The question">
        <pre className="said">{m.question.join("\n")}</pre>
        {m.utterance && <pre className="said">{m.utterance}</pre>}
      </Section>
      <Section title="The answer and its parse">
        <Replies replies={[m.raw]} />
        <p>parsed: {m.value === null ? "no finite number" : usd(m.value)}</p>
        <NonResponse nr={m.nonResponse} />
      </Section>
    </>
  );
}

function Cards({ cards }: { cards: ShopCardView[] }) {
  return (
    <ol className="results">
      {cards.map((c) => (
        <li key={c.position} className="result-card">
          <div className="title">
            <code>{c.id}</code> <strong>{c.name}</strong> · {c.neighborhood} · {"★".repeat(c.stars)}
          </div>
          <div>
            {usd(c.price)}
            {c.wasPrice !== null && <span className="was"> was {usd(c.wasPrice)}</span>} ·{" "}
            {c.reviewScore.toFixed(1)}/10 ({c.reviewCount.toLocaleString("en-US")} reviews)
            {c.tags.map((t) => (
              <span key={t} className="badge">
                {t}
              </span>
            ))}
          </div>
          {c.snippet && <div className="snippet">{c.snippet}</div>}
        </li>
      ))}
    </ol>
  );
}

function CallResult({ r }: { r: ShopCallResult }) {
  return (
    <details className="result">
      <summary>
        {r.cards
          ? `the ${r.cards.length} result cards as the agent saw them`
          : "the listing as the agent saw it"}
      </summary>
      {r.cards && <Cards cards={r.cards} />}
      {r.listing && (
        <div className="listing">
          <div className="title">
            <code>{r.listing.id}</code> <strong>{r.listing.name}</strong> · {r.listing.neighborhood} ·{" "}
            {usd(r.listing.price)}
          </div>
          <div>
            {r.listing.roomType} · free cancellation {r.listing.freeCancellation ? "yes" : "no"} · breakfast{" "}
            {r.listing.breakfast ? "yes" : "no"}
          </div>
          <p className="description">{r.listing.description}</p>
        </div>
      )}
      <pre className="said">{r.text}</pre>
    </details>
  );
}

function ShopView({ m, results }: { m: ShopEpisodeModel; results: ShopCallResult[] }) {
  const byStep = new Map(results.map((r) => [r.step, r]));
  const messagesAt = (step: number) => m.client?.messages.filter((x) => x.step === step) ?? [];
  return (
    <>
      <p className="facts">
        task <code>{m.taskId}</code> · {m.family} · <strong data-testid="outcome">{m.endReason}</strong> ·{" "}
        {m.success ? "success" : "failure"} · {m.admissibleCount} admissible in the catalog
        {m.cheapestAdmissible !== null && ` (cheapest ${usd(m.cheapestAdmissible)})`} · {m.shown} shown,{" "}
        {m.viewed} opened
      </p>
      {m.client && (
        <p className="facts">
          client {m.client.by} ({m.client.persona} persona, patience {m.client.patience}) · shopper{" "}
          {m.client.shopper}
        </p>
      )}
      <Section title={m.client ? "The client's hidden requirements" : "The request"}>
        <pre className="said">{m.request.join("\n")}</pre>
      </Section>
      <Section title="Tool calls">
        {messagesAt(0).map((x, i) => (
          <div key={`o${i}`} className="message client">
            <div className="who">client (opening)</div>
            <pre className="said">{x.text}</pre>
          </div>
        ))}
        <ol className="calls">
          {m.calls.map((c, i) => (
            <li key={i} className={c.ok ? "call" : "call bad"}>
              <div className="who">
                {c.step === null ? "not run" : `call ${c.step}`} · message {c.turn} ·{" "}
                <code>{c.tool || "(no call)"}</code>
              </div>
              <code className="args">{c.args}</code>
              <div className="summary">→ {c.summary}</div>
              {c.step !== null && byStep.get(c.step) && <CallResult r={byStep.get(c.step)!} />}
              {c.step !== null &&
                messagesAt(c.step).map((x, j) => (
                  <div key={j} className={`message ${x.from}`}>
                    <div className="who">{x.from === "machine" ? "machine (patience out)" : x.from}</div>
                    <pre className="said">{x.text}</pre>
                    {x.faults.map((f, k) => (
                      <p key={k} className="fault">
                        fault {f.kind}: {f.detail}
                      </p>
                    ))}
                  </div>
                ))}
            </li>
          ))}
        </ol>
      </Section>
      {m.negotiations && m.negotiations.length > 0 && (
        <Section title="Negotiations">
          {m.negotiations.map((n) => (
            <div key={n.id} className="negotiation">
              <h3>
                <code>{n.id}</code> {n.name} · {n.seller} · list {usd(n.listPrice)} · cap{" "}
                {n.cap === null ? "none" : usd(n.cap)} · cost {usd(n.cost)} ·{" "}
                {n.deal !== null ? `deal ${usd(n.deal)}` : n.closed ? "closed by the seller" : "no deal"}
                {n.booked && " · booked"}
              </h3>
              <Ladder
                messages={n.ladder}
                budget={n.cap}
                cost={n.cost}
                listPrice={n.listPrice}
                deal={n.deal}
              />
              <ol className="moves">
                {n.moves.map((mv, i) => (
                  <li key={i}>
                    {mv.side === "buyer" ? `#${mv.step} buyer offers` : `seller ${mv.move}`}
                    {mv.price !== null && ` ${usd(mv.price)}`}
                    {mv.answer && mv.side === "buyer" && ` → ${mv.answer}`}
                    {mv.message && <pre className="said">{mv.message}</pre>}
                  </li>
                ))}
              </ol>
            </div>
          ))}
        </Section>
      )}
      <Section title="The verdict">
        {m.booked ? (
          <>
            <p>
              booked <code>{m.booked.id}</code> <strong>{m.booked.name}</strong> · {usd(m.booked.price)}
              {m.paid !== null && m.paid !== m.booked.price && ` (paid ${usd(m.paid)} by a deal)`} ·{" "}
              {m.booked.stars}★ · {m.booked.area} · page {m.booked.page}, rank {m.booked.rank}
            </p>
            <ul className="checks">
              {m.booked.checks.map((c) => (
                <li key={c.label} className={c.met ? "met" : "unmet"}>
                  {c.met ? "✓" : "✗"} {c.label}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>
            {m.endReason}
            {m.giveUpReason && `: ${m.giveUpReason}`}
          </p>
        )}
        {m.deadlock && <p>deadlock: out of steps with a negotiation open</p>}
        <NonResponse nr={m.nonResponse} />
        {m.client?.score && (
          <p>
            regret {usd(m.client.score.regret)} a night · surplus {usd(m.client.score.surplus)} · best
            admissible{" "}
            {m.client.score.best
              ? `${m.client.score.best.id} ${m.client.score.best.name} ${usd(m.client.score.best.surplus)}`
              : "none"}{" "}
            · {m.client.score.messages} messages, {m.client.score.repeats} repeats, {m.client.score.faults}{" "}
            client faults · {m.client.score.requirements.map((r) => `${r.label} ${r.status}`).join(", ")}
          </p>
        )}
      </Section>
    </>
  );
}

function SellerTurn({ t }: { t: SellerTurnView }) {
  return (
    <>
      <p className="facts">
        market {t.instance} · round {t.round} · seller {t.seller} <strong>{t.name}</strong> · {t.player}
        {t.adopter ? " (adopter)" : ""} · cost {usd(t.cost)} ·{" "}
        <strong data-testid="outcome">{t.endReason}</strong>
      </p>
      <Section title="The listing before and after the turn">
        <div className="cards two">
          <div className="card">
            <div className="who">
              before: {usd(t.before.price)} · {t.before.arm}
            </div>
            <p className="description">{t.before.description}</p>
          </div>
          <div className="card chosen">
            <div className="who">
              after: {usd(t.after.price)} · {t.after.arm}
            </div>
            <p className="description">{t.after.description}</p>
          </div>
        </div>
      </Section>
      <Section title="Its calls">
        <ol className="calls">
          {t.calls.map((c, i) => (
            <li key={i} className={c.ok ? "call" : "call bad"}>
              <code>{c.tool}</code> <code className="args">{c.args}</code>
              {c.error && <div className="summary">refused: {c.error}</div>}
            </li>
          ))}
        </ol>
      </Section>
      <Section title="What it observed of the round">
        <Json value={t.observation} />
      </Section>
    </>
  );
}

function GenericView({ m }: { m: GenericEpisodeModel }) {
  return (
    <>
      {m.note && <p className="note">{m.note}</p>}
      <table className="data">
        <tbody>
          {m.fields.map((f) => (
            <tr key={f.key}>
              <th>{f.key}</th>
              <td>
                <code>{f.value}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function EpisodeBody({ e }: { e: EpisodePageData }) {
  const m = e.model;
  if (e.sellerTurn) return <SellerTurn t={e.sellerTurn} />;
  switch (m.kind) {
    case "choice":
      return <ChoiceView m={m} />;
    case "cue":
      return <CueView m={m} />;
    case "bargain":
      return <BargainView m={m} />;
    case "elicit":
      return <ElicitView m={m} />;
    case "shop":
      return <ShopView m={m} results={e.results ?? []} />;
    default:
      return <GenericView m={m as GenericEpisodeModel} />;
  }
}

export function EpisodePage({ runId, seq }: { runId: string; seq: number }) {
  const run = useLoad<RunPage>(`/runs/${encodeURIComponent(runId)}`);
  const ep = useLoad<EpisodePageData>(`/runs/${encodeURIComponent(runId)}/episodes/${seq}`);
  return (
    <main>
      {run.data && <RunHeader run={run.data.run} here="episode" />}
      <ErrorNote error={ep.error ?? run.error} />
      {!ep.data && !ep.error && <Loading what="the episode" />}
      {ep.data && (
        <article className="episode" data-env={ep.data.env}>
          <nav className="pager">
            {ep.data.prev !== null && (
              <Link to={runPath(runId, `/episodes/${ep.data.prev}`)}>← episode {ep.data.prev}</Link>
            )}
            <Link to={runPath(runId, "/episodes")}>all episodes</Link>
            {ep.data.next !== null && (
              <Link to={runPath(runId, `/episodes/${ep.data.next}`)}>episode {ep.data.next} →</Link>
            )}
          </nav>
          <h2>
            episode <span data-testid="seq">{ep.data.seq}</span> ·{" "}
            <span data-testid="agent">{ep.data.model.agent}</span>
          </h2>
          <p className="facts">
            trial key <code data-testid="trial-key">{String(ep.data.record.trialKey ?? "")}</code> · replicate{" "}
            {String(ep.data.record.replicate ?? 0)}
          </p>
          <EpisodeBody e={ep.data} />
          <details className="raw">
            <summary>the export record</summary>
            <Json value={ep.data.record} />
          </details>
        </article>
      )}
    </main>
  );
}
