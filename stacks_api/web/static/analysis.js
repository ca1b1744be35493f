// The analysis of a finished game beside its replay: a chart of each person's chance
// of winning over the game, each big drop marked as a mistake; choosing one steps
// the replay to the moment before it and lights the better move on the board.
import { h, cardLabel, cellName } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./history.js";
import { reasonText } from "./hint.js";

const SVG = "http://www.w3.org/2000/svg";
const SEAT_COLORS = ["#1f5fbf", "#1d8a4e", "#c0392b", "#8e44ad", "#d35400", "#16a085"];
const RETRY_MS = 2000;

// The analysis once the workers have made it (202 until then).
export async function fetchAnalysis(gameId, still) {
  for (let tries = 0; tries < 90 && still(); tries++) {
    const answer = await fetch(`/api/v1/games/${gameId}/analysis`);
    if (answer.status === 200) return answer.json();
    if (answer.status !== 202) return null;
    await new Promise((done) => setTimeout(done, RETRY_MS));
  }
  return null;
}

export function moveText(action) {
  if (action.type === "pass") return t("a_pass");
  const card = cardLabel(action.card);
  if (action.cell) return `${card} → ${cellName(action.cell)}`;
  if (action.pile !== undefined) return `${card} → ${t("pile_n", { pile: action.pile + 1 })}`;
  return action.type === "discard" ? `${t("a_discard")} ${card}` : card;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function chart(analysis, last, view, pick) {
  // Room on the left for "100%" and on the right for a three-digit last move, at any width.
  const width = 560, height = 170, left = 56, right = 24, top = 10, bottom = 30;
  const x = (version) => left + ((version - 1) * (width - left - right)) / Math.max(1, last - 1);
  const y = (win) => height - bottom - win * (height - top - bottom);
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-chart", role: "img",
    "aria-label": t("analysis_chart") });
  box.append(svg("polyline", { points: `${left},${top} ${left},${height - bottom} ${width - right},${height - bottom}`, class: "axis-line" }));
  box.append(svg("line", { x1: left, x2: width - right, y1: y(0.5), y2: y(0.5), class: "even" }));
  const label = (text, at, where, anchor, name) => {
    const node = svg("text", { x: at, y: where, "text-anchor": anchor, "data-axis": name });
    node.textContent = text;
    box.append(node);
  };
  for (const [win, name] of [[1, "high"], [0.5, "even"], [0, "low"]]) label(`${win * 100}%`, left - 4, y(win) + 4, "end", name);
  label("1", x(1), height - bottom + 14, "middle", "first");
  label(String(last), x(last), height - bottom + 14, "middle", "last");
  label(t("chart_moves"), (left + width) / 2, height - 3, "middle", "moves");
  const seats = [...new Set(analysis.moves.map((m) => m.seat))];
  for (const seat of seats) {
    const mine = analysis.moves.filter((m) => m.seat === seat);
    box.append(svg("polyline", { points: mine.map((m) => `${x(m.version)},${y(m.win_after)}`).join(" "),
      stroke: SEAT_COLORS[seat % SEAT_COLORS.length], class: "chance" }));
    for (const m of mine.filter((move) => move.mistake)) {
      const dot = svg("circle", { cx: x(m.version), cy: y(m.win_after), r: 10, class: "mistake",
        "data-mistake": m.version, tabindex: 0, role: "button",
        "aria-label": t("mistake_at", { name: seatName(view, seat), n: m.version }) });
      dot.addEventListener("click", () => pick(m));
      dot.addEventListener("keydown", (event) => { if (event.key === "Enter") pick(m); });
      box.append(dot);
    }
  }
  const legend = h("p", { class: "legend", "data-legend": "" }, `${t("chart_chance")}: `, ...seats.map((seat) =>
    h("span", { class: "legend-seat" }, h("span", { class: "swatch", style: `background:${SEAT_COLORS[seat % SEAT_COLORS.length]}` }), ` ${seatName(view, seat)} `)),
    h("span", { class: "legend-seat" }, h("span", { class: "swatch mistake-swatch" }), ` ${t("chart_mistake")}`));
  return h("div", { class: "analysis-figure" }, box, legend);
}

export function analysisPanel(analysis, last, view, chosen, pick) {
  if (analysis === undefined) return h("p", { class: "hint", "data-analysis": "waiting" }, t("analysis_waiting"));
  if (analysis === null) return null;
  const mistakes = analysis.moves.filter((m) => m.mistake);
  const lucky = analysis.luck.seats.map((s) => t("luck_line", { name: seatName(view, s.seat), n: s.lucky,
    expected: s.expected.toFixed(1) })).join(" · ");
  return h("section", { class: "analysis", "data-analysis": "shown" },
    h("h2", {}, t("analysis")),
    chart(analysis, last, view, pick),
    chosen ? h("p", { class: "better", "data-better": chosen.version }, t("better_move", {
      name: seatName(view, chosen.seat), played: moveText(chosen.action), best: moveText(chosen.best),
      before: Math.round(chosen.win_before * 100), after: Math.round(chosen.win_after * 100) }),
    chosen.best_reason ? h("span", { "data-better-why": "" }, ` (${reasonText({ reason: chosen.best_reason, why: chosen.best_why })})`) : null) : null,
    h("p", { class: "hint" }, mistakes.length ? t("mistakes_n", { n: mistakes.length }) : t("no_mistakes")),
    h("p", { class: "hint" }, `${t("luck", { cards: analysis.luck.cards.map(cardLabel).join(", ") })} ${lucky}`));
}

// Light the better move's card target on the replay's board.
export function markBetter(best) {
  const spot = best.cell ? document.querySelector(`[data-cell='${best.cell[0]},${best.cell[1]}']`)
    : best.pile !== undefined ? document.querySelector(`[data-pile='${best.pile}']`) : null;
  if (spot) { spot.classList.add("hinted"); spot.dataset.better = ""; }
}
