// The page's planner by clicking: your units and their targets from the two pasted lists (or
// picked by faction and name), the Leaders attached as choices, who can shoot whom as a grid
// of boxes, rules per unit as boxes. The lists' offer is asked of /api/plan/lists, the plan of
// /api/plan, each as a JSON query (docs/app.md), the rows of a list named as the query names them.
// Uses the helpers of app.js ($, el, getJSON, ask, frac, num, percent, exact, debounce, base64Of,
// setupObject).
"use strict";

const PHASE = {
  lists: { army: null, vs: null },  // /api/plan/lists: each side's units, rows and rules
  named: {},  // a picked unit's card (/api/unit), by name
  allRules: null,  // the named rules of /api/rules
  // attach: the Leaders attached by the page, per side ([LEADER, UNIT] labels), after the list's own
  choice: { on: {}, rules: {}, reach: {}, attach: { army: [], vs: [] }, picks: { army: [], vs: [] },
    objective: "", adaptive: false },
};
const SIDE_NAMES = { army: "your units", vs: "targets" };
// Each objective in a line, in a player's words.
const OBJECTIVE_LINES = {
  "": "points when every target's points are known, else models destroyed",
  points: "a target counts its points only when it is destroyed (every model): one unlikely to "
    + "be destroyed counts little however hurt",
  "model-points": "each model destroyed counts its share of its unit's points, whether the unit "
    + "is destroyed or not",
  models: "each model destroyed counts 1, whatever it costs",
};

// --- the address ------------------------------------------------------------------------------

function readPlan(s) {
  for (const [key, id] of [["plan_army", "phase-army"], ["plan_vs", "phase-vs"]]) {
    if ($(id).value.trim()) s.set(key, $(id).value);
    else if (state.get(`${key}_file`)) s.set(`${key}_file`, state.get(`${key}_file`));
  }
  s.set("plan", JSON.stringify(PHASE.choice));
}
function writePlan(s) {
  $("phase-army").value = s.get("plan_army") || "";
  $("phase-vs").value = s.get("plan_vs") || "";
  try {
    const got = JSON.parse(s.get("plan") || "{}");
    PHASE.choice = { ...PHASE.choice, ...got };
    const attach = got.attach || {};
    PHASE.choice.attach = { army: Array.isArray(attach.army) ? attach.army : [],
      vs: Array.isArray(attach.vs) ? attach.vs : [] };
  } catch { /* an address from elsewhere: the defaults */ }
  $("phase-objective").value = PHASE.choice.objective || "";
  $("phase-adaptive").checked = Boolean(PHASE.choice.adaptive);
  objectiveLine();
}
function savePlan() {
  state.delete("plan");
  readPlan(state);
  history.replaceState(null, "", `#${state.toString()}`);
}

// --- the two lists ------------------------------------------------------------------------

function listOf(key) {
  return state.get(key) || (state.get(`${key}_file`) ? { base64: state.get(`${key}_file`) } : null);
}

const listsKey = () => JSON.stringify([listOf("plan_army"), listOf("plan_vs"), PHASE.choice.attach]);
let listsController = null;
async function loadLists() {
  const army = listOf("plan_army"), vs = listOf("plan_vs");
  PHASE.loadedFor = listsKey();
  if (listsController) listsController.abort();
  showError($("phase-lists-error"), "");
  if (!army && !vs) {
    PHASE.lists = { army: null, vs: null };
    renderPicks();
    return;
  }
  listsController = new AbortController();
  const mine = listsController;
  const body = { attach: attachments(Boolean(army), Boolean(vs)) };
  if (army) body.army = army;
  if (vs) body.vs_army = vs;
  if (state.get("rules")) body.rules = state.get("rules");
  if (state.get("ranged") === "false") body.ranged = false;
  $("phase-busy").hidden = false;
  try {
    const [ok, data] = await getJSON("/api/plan/lists", { method: "POST", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json" }, signal: mine.signal });
    if (mine.signal.aborted) return;
    if (!ok) {
      showError($("phase-lists-error"), pageWords(data.message || data.error));
    } else {
      PHASE.lists = { army: data.army, vs: data.vs };
    }
  } catch (e) {
    if (e.name === "AbortError") return;
    showError($("phase-lists-error"), `mathhammer: error: ${e.message}`);
  }
  $("phase-busy").hidden = true;
  renderPicks();
}

// The Leaders the page attaches, as a query's attach (of the lists given).
function attachments(army, vs) {
  const out = [];
  for (const [side, given] of [["army", army], ["vs", vs]]) {
    if (!given) continue;
    for (const [leader, unit] of PHASE.choice.attach[side] || []) out.push({ leader, unit, side });
  }
  return out;
}
// A line of the server in the page's words: an attachment as "A leading B", no flags.
function pageWords(line) {
  return line.replace(/^<text>(?::\d+)*: /, "the list: ").replace(/(?:--)?attach '(?:army:|vs:)?([^=']{1,300})=([^']{1,300})'/g, "$1 leading $2")
    .replace(/: --attach "[^"]*"/g, "").replace(/ ?\(--[a-z-]+[^)]*\)/g, "")
    .replace(/--([a-z][a-z-]*)/g, (_, f) => f.replace(/-/g, " "));
}

// A unit's name as a player says it: without the faction its data names it by ("Space Marines:").
const bare = (name) => name.replace(/^[^:]{1,80}:(?=\S)/, "");
// The keys of the choices: a row of a side's list by its label, a unit picked by its place and name.
const rowKey = (side, label) => `${side}:row:${label}`;
const pickKey = (side, k, name) => `${side}:unit:${k}:${name}`;
// Every unit of a side the planner offers: the list's rows, then the units picked by name.
function entries(side) {
  const list = PHASE.lists[side];
  const rows = list ? list.rows.map((r) => ({ key: rowKey(side, r.label), label: r.label, row: r })) : [];
  const picks = PHASE.choice.picks[side].map((name, k) => ({ key: pickKey(side, k, name), label: bare(name),
    unit: name }));
  return [...rows, ...picks];
}
// A unit ticked: as the box says, else (a link of the command line) every row of a list with
// "every", and each unit's rules those of "rules_all" until its boxes change.
const isOn = (side, e) => PHASE.choice.on[e.key] ?? Boolean(e.row && (PHASE.choice.every || {})[side]);
const chosen = (side) => entries(side).filter((e) => isOn(side, e));
const rulesOf = (e) => PHASE.choice.rules[e.key] ?? PHASE.choice.rules_all ?? [];

// --- rendering the choices -------------------------------------------------------------------

function ruleChoices(e) {
  const card = e.unit ? PHASE.named[e.unit] : null;
  const own = e.row ? (e.row.switches || []).map((r) => r.name)
    : (card && card.rules ? card.rules.attacker.filter((r) => r.state === "switch").map((r) => r.name) : []);
  const faction = e.row ? e.row.faction : card && card.faction;
  const named = (PHASE.allRules || []).filter((r) => r.side !== "defender"
    && (r.faction === faction || r.faction.startsWith("Core")) && r.usable).map((r) => r.name);
  return [...new Set([...own, ...named, ...rulesOf(e)])];
}
function ruleText(name) {
  for (const row of (PHASE.lists.army && PHASE.lists.army.rows) || []) {
    const r = (row.switches || []).find((x) => x.name === name);
    if (r) return r.text;
  }
  const r = (PHASE.allRules || []).find((x) => x.name === name);
  return r ? r.describe : "";
}

function unitItem(side, e) {
  const box = el("input", { type: "checkbox", checked: isOn(side, e),
    "data-key": e.key, "aria-label": `${SIDE_NAMES[side] === "targets" ? "target" : "unit"} ${e.label}` });
  box.addEventListener("change", () => { PHASE.choice.on[e.key] = box.checked; changed(true); });
  const pts = e.row && e.row.points ? ` (${e.row.points} pts)` : "";
  const parts = [el("label", { class: "pick", title: e.unit || e.label }, box, ` ${e.label}${pts}`)];
  if (e.unit) {
    const remove = el("button", { type: "button", class: "remove", text: "remove",
      "aria-label": `remove ${e.label}` });
    remove.addEventListener("click", () => {  // the later picks keep their ticks
      const k = Number(e.key.split(":")[2]);
      const picks = PHASE.choice.picks[side];
      const key = (i) => pickKey(side, i, picks[i]);
      const was = picks.map((_, i) => Boolean(PHASE.choice.on[key(i)]));
      picks.forEach((_, i) => { delete PHASE.choice.on[key(i)]; });
      picks.splice(k, 1);
      was.splice(k, 1);
      was.forEach((on, i) => { if (on) PHASE.choice.on[key(i)] = true; });
      changed(true);
    });
    parts.push(remove);
  }
  if (side === "army" && e.row && e.row.weapons === false) parts.push(el("span", { class: "note", text: " no weapons for this phase" }));
  if (side === "army" && isOn(side, e)) {
    const names = ruleChoices(e);
    const on = new Set(rulesOf(e));
    if (names.length) {
      const checks = names.map((n) => {
        const b = el("input", { type: "checkbox", checked: on.has(n), value: n,
          "aria-label": `${n} (${e.label})` });
        b.addEventListener("change", () => {
          const now = new Set(rulesOf(e));
          if (b.checked) now.add(n); else now.delete(n);
          PHASE.choice.rules[e.key] = [...now];
          summary.textContent = `its rules (${now.size} on)`;
          changed(false);
        });
        return el("label", { title: ruleText(n) }, b, ` ${n}`);
      });
      const summary = el("summary", { text: `its rules (${on.size} on)` });
      parts.push(el("details", { class: "unit-rules" }, summary, el("div", { class: "checks" }, ...checks)));
    }
  }
  return el("li", { "data-key": e.key }, ...parts);
}

function attachChoices(side) {
  const list = PHASE.lists[side];
  if (!list) return [];
  const leaders = list.units.filter((u) => u.leads.length);
  if (!leaders.length) return [];
  const stated = Object.fromEntries(list.stated.map(([l, u]) => [l, u]));
  const added = Object.fromEntries((PHASE.choice.attach[side] || []).map(([l, u]) => [l, u]));
  const items = leaders.map((u) => {
    if (stated[u.label]) {  // the list says it: kept, unless undone ("alone") or moved
      const mine = (PHASE.choice.attach[side] || []).filter(([l]) => l === u.label).map(([, b]) => b);
      const select = el("select", { "aria-label": `${u.label} leads (${SIDE_NAMES[side]})`, "data-leader": u.label },
        el("option", { value: "", text: `${stated[u.label]} (as the list says)` }),
        el("option", { value: "alone", text: "not attached (alone)" }),
        ...u.leads.filter((b) => b !== stated[u.label]).map((b) => el("option", { value: b, text: b })));
      select.value = mine.find((b) => b !== "alone") || (mine.includes("alone") ? "alone" : "");
      select.addEventListener("change", () => {
        const pairs = (PHASE.choice.attach[side] || []).filter(([l]) => l !== u.label);
        if (select.value) pairs.push([u.label, "alone"]);  // the list's attachment undone
        if (select.value && select.value !== "alone") pairs.push([u.label, select.value]);
        PHASE.choice.attach[side] = pairs;
        changed(true, true);
      });
      return el("label", { class: "attach" }, `${u.label} leads `, select);
    }
    const select = el("select", { "aria-label": `${u.label} leads (${SIDE_NAMES[side]})`, "data-leader": u.label },
      el("option", { value: "", text: "no unit (alone)" }),
      ...u.leads.map((b) => el("option", { value: b, text: b })));
    select.value = added[u.label] || "";
    select.addEventListener("change", () => {
      const pairs = (PHASE.choice.attach[side] || []).filter(([l]) => l !== u.label);
      if (select.value) pairs.push([u.label, select.value]);
      PHASE.choice.attach[side] = pairs;
      changed(true, true);
    });
    return el("label", { class: "attach" }, `${u.label} leads `, select);
  });
  const lone = list.lone.filter((x) => !added[x.leader]);
  const note = lone.length ? el("p", { class: "note", text: "The list does not say who leads whom: "
    + `${lone.map((x) => x.leader).join(", ")} ${lone.length === 1 ? "stands" : "stand"} alone, but could lead a unit.` }) : "";
  return [el("h4", { text: side === "army" ? "your Leaders" : "the enemy's Leaders" }), note, ...items];
}

function reachGrid() {
  const us = chosen("army"), ts = chosen("vs");
  if (!us.length || !ts.length) return [el("p", { class: "note", text: "tick your units and their targets above" })];
  const head = el("tr", {}, el("th", { text: "unit ↓ target →" }),
    ...ts.map((t, j) => el("th", { title: t.label, text: `${j + 1}` })));
  const rows = us.map((u) => {
    const half = u.row ? u.row.half : true;
    const cells = ts.map((t, j) => {
      const now = (PHASE.choice.reach[u.key] || {})[t.key] ?? "x";
      const can = el("input", { type: "checkbox", checked: now !== "", "aria-label": `${u.label} can shoot ${t.label}` });
      const near = el("input", { type: "checkbox", checked: now === "half", disabled: now === "",
        "aria-label": `${u.label} within half range of ${t.label}` });
      const set = () => {
        PHASE.choice.reach[u.key] = { ...(PHASE.choice.reach[u.key] || {}),
          [t.key]: !can.checked ? "" : near.checked ? "half" : "x" };
        near.disabled = !can.checked;
        changed(false);
      };
      can.addEventListener("change", set);
      near.addEventListener("change", set);
      return el("td", { "data-target": j + 1 }, can, half ? el("label", { class: "half", title: "within half range" }, near, "½") : "");
    });
    return el("tr", {}, el("th", { scope: "row", text: u.label }), ...cells);
  });
  const key = el("ol", { class: "targets-key" }, ...ts.map((t) => el("li", { text: t.label })));
  return [el("div", { class: "scroll" }, el("table", { class: "reach", id: "phase-reach-grid" }, head, ...rows)), key,
    el("p", { class: "note", text: "A ticked box: the unit can shoot that target (in range and in sight); "
      + "½: within half range (shown for units whose weapons or rules gain from it)." })];
}

function renderPicks() {
  for (const side of ["army", "vs"]) {
    const items = entries(side).map((e) => unitItem(side, e));
    const list = PHASE.lists[side];
    const info = list ? `${list.rows.length} units, ${list.points} pts${list.unresolved ? `; ${list.unresolved} lines not read` : ""}` : "";
    $(`phase-${side}-units`).replaceChildren(...(items.length ? [el("p", { class: "note", text: info }),
      el("ul", { class: "units" }, ...items)]
      : [el("p", { class: "note", text: side === "army" ? "paste your list above, or add units by name"
        : "paste the enemy's list above, or add targets by name" })]));
  }
  const attach = [...attachChoices("army"), ...attachChoices("vs")];
  $("phase-attach").hidden = !attach.length;
  $("phase-attach-body").replaceChildren(...attach);
  $("phase-reach-body").replaceChildren(...reachGrid());
}

function objectiveLine() {
  $("phase-objective-line").textContent = OBJECTIVE_LINES[$("phase-objective").value] || "";
}

// --- the plan ---------------------------------------------------------------------------------

// Labels as the plan gives them: a unit's name without its faction, the second of a name "#2".
function labelsOf(items) {
  const seen = {};
  return items.map((e) => {
    const name = e.row ? e.row.label : bare(e.unit);
    seen[name] = (seen[name] || 0) + 1;
    return seen[name] === 1 ? name : `${name} #${seen[name]}`;
  });
}

// The plan as a query (app.queries.Plan): the units ticked (a row of a list by its label), their
// own rules, the targets ticked, the Leaders attached, who can shoot whom, the modifiers above.
function phaseBody() {
  const us = chosen("army"), ts = chosen("vs");
  const body = { units: us.map((e) => {
    const unit = e.row ? `army:${e.row.label}` : e.unit;
    const rules = rulesOf(e);
    return rules.length ? { unit, named_rules: rules } : unit;
  }), targets: ts.map((e) => (e.row ? `vs:${e.row.label}` : e.unit)) };
  const army = us.some((e) => e.row) ? listOf("plan_army") : null;
  const vs = ts.some((e) => e.row) ? listOf("plan_vs") : null;
  if (army) body.army = army;
  if (vs) body.vs_army = vs;
  if (army || vs) body.allow_unresolved = true;  // the lines not read are said
  const attach = attachments(Boolean(army), Boolean(vs));
  if (attach.length) body.attach = attach;
  // who can shoot whom: the units whose row of boxes is not all ticked (the others: every target)
  const uLabels = labelsOf(us), tLabels = labelsOf(ts);
  const reach = [];
  us.forEach((u, i) => {
    const cells = ts.map((t) => (PHASE.choice.reach[u.key] || {})[t.key] ?? "x");
    if (cells.every((c) => c === "x")) return;
    reach.push({ unit: uLabels[i], targets: tLabels.filter((_, j) => cells[j] === "x"),
      half: tLabels.filter((_, j) => cells[j] === "half") });
  });
  if (reach.length) body.reach = reach;
  const shared = setupObject(false);  // the modifiers above, shared by every unit
  delete shared.leader;  // the attack's target's Leader and size are not the plan's
  delete shared.target_models;
  Object.assign(body, shared);
  if (PHASE.choice.objective) body.objective = PHASE.choice.objective;
  if (PHASE.choice.adaptive) body.adaptive = true;
  return body;
}

let phaseController = null;
let plansAsked = 0;
async function runPlan() {
  const asked = ++plansAsked;
  // lists of another address (the page's history): read them first
  if (PHASE.loadedFor !== undefined && PHASE.loadedFor !== listsKey()) await loadLists();
  if (asked !== plansAsked) return;  // a newer plan was asked meanwhile: it answers
  const us = chosen("army"), ts = chosen("vs");
  if (phaseController) phaseController.abort();
  if (!us.length || !ts.length) {
    $("plan-answer").replaceChildren();
    showError($("plan-error"), "");
    $("plan-busy").hidden = true;
    return;
  }
  phaseController = new AbortController();
  const mine = phaseController;
  $("plan-busy").hidden = false;
  try {
    const [ok, data] = await ask("plan", phaseBody(), mine.signal);
    if (mine.signal.aborted) return;
    if (!ok) {
      showError($("plan-error"), pageWords(data.message || data.error));
      $("plan-answer").replaceChildren();
    } else {
      showError($("plan-error"), "");
      renderPhase(data);
    }
    $("plan-busy").hidden = true;
  } catch (e) {
    if (e.name !== "AbortError") {
      showError($("plan-error"), `mathhammer: error: ${e.message}`);
      $("plan-busy").hidden = true;
    }
  }
}

// A value as a player reads it (3 places); a click shows the whole exact fraction.
function valueOf(v, places = 3) {
  const f = frac(v);
  const whole = exact(f);
  const shown = num(f).toFixed(places);
  const b = el("button", { type: "button", class: "exact-toggle", "data-exact": v, title: "exact value: click",
    text: shown });
  b.addEventListener("click", () => {
    const open = b.classList.toggle("open");
    b.textContent = open ? whole : shown;
  });
  return b;
}
function pOf(v) {
  const f = frac(v);
  const b = el("button", { type: "button", class: "exact-toggle", "data-exact": v, title: "exact value: click",
    text: percent(f) });
  b.addEventListener("click", () => {
    const open = b.classList.toggle("open");
    b.textContent = open ? exact(f) : percent(f);
  });
  return b;
}

const WHAT = { models: "expected models destroyed" };
function planList(plan, id) {
  return el("ul", { class: "assignment", id }, ...plan.map((x) => el("li", { "data-unit": x.unit },
    `${x.unit} → ${x.target}${x.half_range ? " (within half range)" : ""}`)));
}
function moved(best, other) {
  const was = Object.fromEntries(best.map((x) => [x.unit, x.target]));
  const diff = other.filter((x) => was[x.unit] !== x.target).map((x) => `${x.unit} → ${x.target}`);
  return diff.join(", ") || "the same targets in another order";
}

function renderPhase(data) {
  const what = WHAT[data.objective] || "expected points destroyed";
  const out = [el("p", { class: "big", id: "plan-best" }, "best plan: ", valueOf(data.best.value), ` ${what}`),
    planList(data.plan, "plan-list")];
  const head = el("tr", {}, ...["target", "value", "P(destroyed)"].map((h) => el("th", { text: h })));
  const rows = data.per_target.filter((t) => t.attackers.length).map((t) => el("tr", { "data-target": t.target.name },
    el("td", { text: t.target.name + (t.points !== null ? ` (${t.points} pts)` : "") }),
    el("td", {}, valueOf(t.value)), el("td", {}, pOf(t.destroyed))));
  out.push(el("div", { class: "scroll" }, el("table", { class: "numbers", id: "plan-targets" }, head, ...rows)));
  const verdict = el("p", { id: "plan-verdict" });
  if (data.ties.count > 1) {
    const others = data.ties.plans.slice(1).map((p) => `or ${moved(data.plan, p)}`);
    const more = data.ties.count - data.ties.plans.length;
    verdict.append(`a tie: ${data.ties.count} plans are worth exactly the same (`, valueOf(data.ties.value),
      `): the one above, ${others.join("; ")}${more > 0 ? `; and ${more} more` : ""}`);
  } else if (data.next_best) {
    verdict.append("ahead of the next best plan by ", valueOf(data.lead, 4), `, which has ${moved(data.plan, data.alternatives.length ? data.alternatives[0].plan : [])}`);
  } else {
    verdict.append("the only plan: every unit has one target it can shoot");
  }
  verdict.id = "plan-lead";
  out.push(verdict);
  // the search: proved the best, or the best it found within its budget and how far off it may be
  out.push(data.proved
    ? el("p", { class: "note", id: "plan-proved", text: "proved the best plan by the exact search" })
    : el("p", { class: "note", id: "plan-gap" }, "the best plan found, not proved: no plan is worth more than ",
      valueOf(data.bound), " (a gap of at most ", valueOf(data.gap, 4), `; the search stopped at its budget of `
      + `${data.search.budget.toLocaleString("en")} steps)`));
  const left = data.per_target.filter((t) => !t.attackers.length).map((t) => t.target.name);
  if (left.length) out.push(el("p", { class: "note", text: `not shot: ${left.join(", ")}` }));
  out.push(el("p", { class: "note", text: `objective: ${OBJECTIVE_LINES[data.objective] || ""}` }));
  const warned = data.warnings || [];
  if (warned.length) {  // what was guessed or left out, said; folded when there is much of it
    const said = el("ul", { class: "warnings" }, ...warned.map((w) => el("li", { text: pageWords(w.replace(/^warning: /, "")) })));
    out.push(warned.length <= 2 ? said : el("details", { id: "plan-warnings" },
      el("summary", { text: `${warned.length} notes: names read as others, Leaders alone, units left out` }), said));
  }
  // the details, on a click
  const more = [el("p", { class: "note", text: `${data.attackers.length} units, ${data.per_target.length} targets; `
    + `${data.assignments.toLocaleString("en")} assignments, searched exactly in `
    + `${data.search.steps.toLocaleString("en")} steps, in ${data.seconds} s; units that shoot one `
    + "target resolve in the order of the list" }),
  el("p", { class: "note", text: `Bounds: ${data.limits}.` })];
  for (const [k, a] of data.alternatives.entries()) {
    more.push(el("p", { class: "alt" }, `next best #${k + 2}: `, valueOf(a.value), ` (behind by `, valueOf(a.behind, 4), ")"),
      planList(a.plan, null));
  }
  for (const x of data.left_out || []) more.push(el("p", { class: "note", text: pageWords(`left out: ${x.name}: ${x.why}`) }));
  const ad = data.adaptive;
  if (ad) {
    more.push(el("p", { id: "plan-adaptive" }, `adaptive (${ad.exact ? "the best policy, exact" : "a heuristic within the page's budget"}): value `,
      valueOf(ad.value), "; gain over the fixed plan ", valueOf(ad.gain, 4)));
  }
  out.push(el("details", { id: "plan-details" }, el("summary", { text: "details: the next best plans, how it was planned" }), ...more));
  $("plan-answer").replaceChildren(...out);
}

// --- picking units by faction and name ------------------------------------------------------

let phaseFactions = false;
async function phaseLoadFactions() {
  if (phaseFactions) return;
  phaseFactions = true;
  const [ok, data] = await getJSON(`/api/factions?rules=${state.get("rules") || ""}`);
  $("phase-faction").replaceChildren(el("option", { value: "", text: "(bundled units and profiles)" }),
    ...(ok ? data.factions : []).map((f) => el("option", { value: f, text: f })));
}
async function phaseLoadNames() {
  const f = $("phase-faction").value;
  let names = UNITS.map((u) => u.name);
  if (f) {
    const [ok, data] = await getJSON(`/api/search?q=&faction=${encodeURIComponent(f)}&rules=${state.get("rules") || ""}`);
    names = ok ? data.units : [];
  }
  $("phase-name-list").replaceChildren(...names.map((n) => el("option", { value: n })));
}
async function phaseAdd() {
  const name = $("phase-name").value.trim();
  const side = $("phase-side").value;
  if (!name) return;
  const picks = PHASE.choice.picks[side];
  picks.push(name);
  PHASE.choice.on[pickKey(side, picks.length - 1, name)] = true;
  $("phase-name").value = "";
  await namedCards();
  changed(true);
}
async function namedCards() {
  const names = [...PHASE.choice.picks.army].filter((n) => !(n in PHASE.named));
  await Promise.all(names.map(async (n) => {
    const [ok, data] = await getJSON(`/api/unit?name=${encodeURIComponent(n)}&rules=${state.get("rules") || ""}`);
    PHASE.named[n] = ok ? data : null;
  }));
}

// --- wiring ---------------------------------------------------------------------------------

const runPlanLater = debounce(runPlan, 700);  // a plan is heavy: after the clicks settle
function runPlanSoon() { runPlanLater(); }  // the shared modifiers changed (app.js)
const loadListsLater = debounce(async () => { await loadLists(); runPlan(); }, 400);
// a choice changed: drawn again (the boxes that depend on it), saved, planned again
function changed(redraw, lists = false) {
  savePlan();
  if (lists) { loadListsLater(); return; }
  if (redraw) renderPicks();
  runPlanLater();
}

async function startPlan(limits) {
  $("plan-limits").textContent = limits ? `Bounds: ${limits}.` : "";
  const [ok, data] = await getJSON("/api/rules");
  PHASE.allRules = ok ? data.rules : [];
  for (const [id, key] of [["phase-army", "plan_army"], ["phase-vs", "plan_vs"]]) {
    $(id).addEventListener("input", () => {
      state.delete(`${key}_file`);
      PHASE.choice.attach[key === "plan_army" ? "army" : "vs"] = [];
      changed(true, true);
    });
    $(`${id}-file`).addEventListener("change", async (ev) => {
      ev.stopPropagation();
      if (!ev.target.files.length) return;
      $(id).value = "";
      state.delete(key);
      state.set(`${key}_file`, await base64Of(ev.target.files[0]));
      PHASE.choice.attach[key === "plan_army" ? "army" : "vs"] = [];
      changed(true, true);
    });
  }
  $("phase-objective").addEventListener("change", () => {
    PHASE.choice.objective = $("phase-objective").value;
    objectiveLine();
    changed(false);
  });
  $("phase-adaptive").addEventListener("change", () => {
    PHASE.choice.adaptive = $("phase-adaptive").checked;
    changed(false);
  });
  for (const ev of ["focus", "mousedown", "keydown"]) $("phase-faction").addEventListener(ev, phaseLoadFactions);
  $("phase-faction").addEventListener("change", phaseLoadNames);
  $("phase-add").addEventListener("click", phaseAdd);
  phaseLoadNames();
  await namedCards();
  await loadLists();
}
