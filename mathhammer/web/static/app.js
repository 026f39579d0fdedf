// The mathhammer page: a form whose state lives in the address (#...), the answers of /api/*
// drawn as tables and plain SVG charts. Exact fractions are BigInt pairs, never floats.
"use strict";
// The plan's own keys of the address (its lists and choices: plan.js).
const PLAN_KEYS = ["plan", "plan_army", "plan_army_file", "plan_vs", "plan_vs_file"];

const $ = (id) => document.getElementById(id);
// The modifiers a player reaches for first, by phase; the other options fold under "more".
const GROUPS = [["situation", ["half_range", "charged", "stationary", "cover"]],
  ["hit", ["hit_mod", "reroll_hits", "crit_hit"]], ["wound", ["wound_mod", "reroll_wounds",
    "crit_wound"]], ["save", ["ap_mod", "save_mod"]], ["damage", ["damage_mod", "halve_damage"]],
  ["edition", ["rules"]]];
const COUNTERS = [["attacks", "attacks"], ["hits", "hits"], ["wounds", "wounds"],
  ["unsaved", "unsaved wounds"], ["mortal", "mortal wounds"], ["damage", "damage"],
  ["kills", "kills"]];
const DEFAULT = "attacker=Hexmark+Destroyer&target=MEQ";
let SCHEMA = [];
let UNITS = [];
let RULES = [];
let state = new URLSearchParams();
const info = { attacker: null, target: null };
let searchable = true;

// --- exact fractions ------------------------------------------------------------------------

function frac(text) {
  if (!/^-?\d+(\/\d+)?$/.test(String(text))) {  // "[9044/9542 digits]": too long to send
    throw new Error(`an exact value of ${String(text).slice(1, -1)} is too long for the page; ` +
                    "ask fewer dice, or the command line with --json --full-fractions");
  }
  const [n, d] = String(text).split("/");
  return [BigInt(n), BigInt(d === undefined ? "1" : d)];
}
function gcd(a, b) {
  a = a < 0n ? -a : a;
  while (b) [a, b] = [b, a % b];
  return a;
}
function add([a, b], [c, d]) {
  const n = a * d + c * b, m = b * d, g = gcd(n, m) || 1n;
  return [n / g, m / g];
}
function exact([n, d]) { return d === 1n ? String(n) : `${n}/${d}`; }
// A fraction as a player reads it: itself when short, else "≈" and 4 significant digits.
function short(f) {
  const e = exact(f);
  return e.length <= 11 ? e : `≈ ${Number(num(f).toPrecision(4))}`;
}
function num([n, d]) { return Number((n * 10n ** 15n) / d) / 1e15; }
// A probability as the command line prints it: 2 places, "<0.01%" and ">99.99%" at the ends.
function percent(p, places = 2) {
  const [n, d] = p, scale = 10n ** BigInt(places + 2);
  if (n > 0n && n * scale < d) return `<${(100 / Number(scale)).toFixed(places)}%`;
  if (n < d && (d - n) * scale < d) return `>${(100 - 100 / Number(scale)).toFixed(places)}%`;
  return `${(num(p) * 100).toFixed(places)}%`;
}
// A PMF {"k": "num/den"} as sorted [k, fraction] pairs.
function pmfPairs(pmf) {
  return Object.entries(pmf).map(([k, p]) => [Number(k), frac(p)]).sort((a, b) => a[0] - b[0]);
}
function atLeast(pairs, k) {
  return pairs.filter(([j]) => j >= k).reduce((s, [, p]) => add(s, p), [0n, 1n]);
}

// --- helpers --------------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v; else e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children);
  return e;
}
function svg(tag, attrs = {}) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
function debounce(f, ms) {
  let t = null;
  return (...args) => { clearTimeout(t); t = setTimeout(() => f(...args), ms); };
}
// The newest call of an asynchronous drawing wins: ``draw(superseded, ...args)`` asks
// ``superseded()`` after each wait, which gives the promise of a newer call (then it draws
// nothing and returns that: an older unit's card, wargear or rules would otherwise be put back
// over the newer ones by an answer that came late) or null.
function newestWins(draw) {
  let current = null;
  return (...args) => {
    const p = draw(() => (current !== p ? current : null), ...args);
    current = p;
    return p;
  };
}
function lines(text) { return text.split("\n").map((s) => s.trim()).filter(Boolean); }
function isRows(text) { return text.includes("|"); }
// A 503 with Retry-After (the server compiling the game's data, or busy): its line is shown in
// #notice and the request is asked again after that many seconds, until it answers, is
// aborted, or RETRY_FOR_MS have passed (then the 503's line is the answer: never a wait forever).
const retrying = new Set();
const RETRY_FOR_MS = 180000;
async function getJSON(url, options = {}) {
  const key = {};
  const started = Date.now();
  try {
    for (;;) {
      const res = await fetch(url, options);
      let data;
      try { data = await res.json(); } catch { data = { error: `HTTP ${res.status}` }; }
      const wait = Number(res.headers.get("Retry-After"));
      if (res.status !== 503 || !(wait > 0) || Date.now() - started > RETRY_FOR_MS) {
        return [res.ok, data, res.status];
      }
      retrying.add(key);
      showError($("notice"), data.message || data.error);
      await new Promise((resolve) => { setTimeout(resolve, wait * 1000); });
      if (options.signal && options.signal.aborted) throw new DOMException("aborted", "AbortError");
    }
  } finally {
    if (retrying.delete(key) && !retrying.size) showError($("notice"), "");
  }
}
function showError(box, message) {
  box.hidden = !message;
  box.textContent = message || "";
}
const tooltip = () => $("tooltip");
function tip(target, text) {
  target.addEventListener("mousemove", (ev) => {
    const t = tooltip();
    t.textContent = text;
    t.hidden = false;
    t.style.left = `${Math.min(ev.clientX + 14, window.innerWidth - 320)}px`;
    t.style.top = `${ev.clientY + 14}px`;
  });
  target.addEventListener("mouseleave", () => { tooltip().hidden = true; });
}

// --- the form <-> the address ---------------------------------------------------------------

function optionControl(o) {
  const label = o.name.replaceAll("_", " ");
  let input;
  if (o.kind === "bool") {
    input = el("input", { type: "checkbox", name: o.key, "data-default": String(o.default) });
    return el("label", { title: `${o.flag}: ${o.help}` }, input, ` ${label}`);
  }
  if (o.kind === "int") {
    input = el("input", { type: "number", name: o.key, min: o.min, max: o.max, class: "num",
      "data-default": String(o.default) });
  } else if (o.kind === "threshold" || o.kind === "choice") {
    // a threshold off by default (7: "an unmodified Hit roll of X+ always hits") offers "off"
    const values = o.kind === "threshold"
      ? [2, 3, 4, 5, 6].map(String).concat(o.default > 6 ? [String(o.default)] : []) : o.choices;
    input = el("select", { name: o.key, "data-default": String(o.default) },
      ...values.map((v) => el("option", { value: v,
        text: o.kind === "threshold" ? (Number(v) > 6 ? "off" : `${v}+`) : (v || "none") })));
  } else {
    input = el("input", { name: o.key, "data-default": "", placeholder: "e.g. lethal hits" });
  }
  return el("label", { title: `${o.flag}: ${o.help}` }, `${label} `, input);
}

function buildOptions() {
  const byName = Object.fromEntries(SCHEMA.map((o) => [o.name, o]));
  const used = new Set();
  const groups = GROUPS.map(([title, names]) => {
    const controls = names.filter((n) => byName[n]).map((n) => { used.add(n); return optionControl(byName[n]); });
    return el("div", { class: "group", role: "group", "aria-label": title },
      el("div", { class: "group-name", text: title }), ...controls);
  });
  $("options").replaceChildren(...groups);
  $("more-options").replaceChildren(...SCHEMA.filter((o) => !used.has(o.name)).map(optionControl));
  $("metric").replaceChildren();
}
const optInput = (key) => document.querySelector(`#form .options [name="${key}"]`);

// A weapon pick of the address ("2x Lascannon" or "Lascannon") as [name, count or null].
function parsePick(text) {
  const m = /^(\d+)\s*x\s+(.+)$/i.exec(text.trim());
  return m ? [m[2], Number(m[1])] : [text.trim(), null];
}

function readForm() {
  const s = new URLSearchParams();
  for (const key of ["attacker", "attacker_leader", "target", "leader", "models",
    "target_models", "turns", "reanimation"]) {
    const v = $(key).value.trim();
    if (v) s.set(key, v);
  }
  if (document.querySelector("input[name=phase]:checked").value === "melee") s.set("ranged", "false");
  if ($("pistols").checked) s.set("pistols", "true");
  if ($("faction").value) s.set("faction", $("faction").value);
  const [picks, none] = readPicks($("weapons"));
  picks.forEach((w) => s.append("weapon", w));
  if (none) s.set("no_weapon", "true");  // none, not the defaults
  readThen().forEach((spec) => s.append("then", spec));
  if ($("until").value.trim()) s.set("until", $("until").value.trim());
  readPlan(s);
  for (const o of SCHEMA) {
    const input = optInput(o.key);
    if (o.kind === "bool") {
      if (String(input.checked) !== input.dataset.default) s.set(o.key, String(input.checked));
    } else if (o.kind === "list") {
      input.value.split(",").map((x) => x.trim()).filter(Boolean).forEach((a) => s.append(o.key, a));
    } else if (input.value !== "" && input.value !== input.dataset.default) {
      s.set(o.key, input.value);
    }
  }
  document.querySelectorAll("#rules input:checked").forEach((b) => s.append("rule", b.value));
  if ($("k").value !== "1") s.set("k", $("k").value);
  if ($("dist").value !== "kills") s.set("dist", $("dist").value);
  lines($("row").value).forEach((r) => s.append("row", r));
  lines($("vs").value).forEach((r) => s.append("vs", r));
  if ($("army").value.trim()) s.set("army", $("army").value);
  else if (state.get("army_file")) s.set("army_file", state.get("army_file"));
  if ($("metric").value && $("metric").value !== "kills") s.set("metric", $("metric").value);
  if ($("by").value !== "unit") s.set("by", $("by").value);
  return s;
}

function writeForm(s) {
  for (const key of ["attacker", "attacker_leader", "target", "leader", "models",
    "target_models", "turns", "reanimation"]) $(key).value = s.get(key) || "";
  const melee = s.get("ranged") === "false";
  document.querySelector(`input[name=phase][value=${melee ? "melee" : "ranged"}]`).checked = true;
  $("pistols").checked = s.get("pistols") === "true";
  $("faction").value = s.get("faction") || "";
  for (const o of SCHEMA) {
    const input = optInput(o.key);
    if (o.kind === "bool") input.checked = (s.get(o.key) ?? String(o.default)) === "true";
    else if (o.kind === "list") input.value = s.getAll(o.key).join(", ");
    else input.value = s.get(o.key) ?? String(o.default);
  }
  $("k").value = s.get("k") || "1";
  $("dist").value = s.get("dist") || "kills";
  $("row").value = s.getAll("row").join("\n");
  $("vs").value = s.getAll("vs").join("\n");
  $("army").value = s.get("army") || "";
  $("metric").value = s.get("metric") || "kills";
  $("by").value = s.get("by") || "unit";
  $("until").value = s.get("until") || "";
  writePlan(s);
}

function saveState() {
  state = readForm();
  history.replaceState(null, "", `#${state.toString()}`);
}

// --- the JSON queries of the API (mathhammer.app.queries; docs/app.md) ------------------------

// An option of the form as its JSON value: a number, a flag, a name; null when not given.
function optionValue(o, s = state) {
  if (!s.has(o.key)) return null;
  if (o.kind === "list") return s.getAll(o.key);
  const v = s.get(o.key);
  if (o.kind === "bool") return v === "true";
  if (o.kind === "int" || o.kind === "threshold") return Number(v);
  return v === "" ? null : v;
}
// How the attack is made, as a query's setup: the options above, the named rules picked and
// the phase (ranged: false is melee); ``own`` adds the first unit's (its models, weapons).
function setupObject(own = true) {
  const out = {};
  for (const o of SCHEMA) {
    const v = optionValue(o);
    if (v !== null) out[o.key] = v;
  }
  if (state.get("ranged") === "false") out.ranged = false;
  if (state.get("pistols") === "true") out.pistols = true;
  if (state.get("leader")) out.leader = state.get("leader");
  if (state.get("target_models")) out.target_models = Number(state.get("target_models"));
  if (own) {
    if (state.get("models")) out.models = Number(state.get("models"));
    if (state.getAll("weapon").length) out.weapons = state.getAll("weapon");
    if (state.getAll("rule").length) out.named_rules = state.getAll("rule");
  }
  return out;
}
// The pasted (or uploaded) army list, as a query names it.
function armyList() {
  return state.get("army") || (state.get("army_file") ? { base64: state.get("army_file") } : null);
}
// One unit of a salvo as its JSON: {unit, models, weapons, named_rules}.
function unitOrder(u) {
  const out = { unit: u.unit + (u.leader ? ` + ${u.leader}` : "") };
  if (u.models) out.models = Number(u.models);
  if (u.weapons.length) out.weapons = u.weapons;
  if (u.rules.length) out.named_rules = u.rules;
  return out;
}
// The attack as a JSON query: a kills query, or a salvo with the units after the first.
// An attacker's Leader is its name's "UNIT + LEADER".
function killsQuery() {
  const attacker = state.get("attacker") || "";
  const thens = state.getAll("then").map(parseSpec).filter((u) => u.unit);
  if (thens.length && attacker) {  // several units into one target, in order
    const first = { unit: attacker, leader: state.get("attacker_leader") || "",
      models: state.get("models") || "", weapons: state.getAll("weapon"), rules: state.getAll("rule") };
    const q = { kind: "salvo", units: [first, ...thens].map(unitOrder), target: state.get("target") || "",
      ...setupObject(false) };
    if (state.get("until")) q.until = state.get("until");
    return q;
  }
  const q = { kind: "kills", target: state.get("target") || "" };
  if (attacker) q.attacker = attacker + (state.get("attacker_leader") ? ` + ${state.get("attacker_leader")}` : "");
  Object.assign(q, setupObject());
  if (state.get("turns")) q.turns = Number(state.get("turns"));
  if (state.get("reanimation")) q.reanimation = state.get("reanimation") === "true";
  if ([q.attacker, q.target].some((v) => v && v.startsWith("army:")) && armyList()) q.army = armyList();
  return q;
}

// The comparison as a JSON query: the rows (or the army list) against the targets.
// Its options are the modifiers and the named rules (the attack's units, their sizes and
// Leaders are the main view's).
function compareQuery() {
  const q = {};
  for (const o of SCHEMA) {
    const v = optionValue(o);
    if (v !== null) q[o.key] = v;
  }
  // the attacker's own datasheet rules (Oath of Moment) are its own, not the comparison's
  const own = new Set(RULES.filter((r) => r.faction.endsWith("(datasheet, when it applies)")).map((r) => r.name));
  const rules = state.getAll("rule").filter((r) => !own.has(r));
  if (rules.length) q.named_rules = rules;
  if (state.get("ranged") === "false") q.melee = true;
  if (state.get("metric")) q.metric = state.get("metric");
  const targets = state.getAll("vs");
  if (targets.length) q.targets = targets;
  return q;
}

// POST a JSON query to its endpoint.
function ask(kind, query, signal) {
  return getJSON(`/api/${kind}`, { method: "POST", body: JSON.stringify(query), signal,
    headers: { "Content-Type": "application/json" } });
}

// --- units, weapons, named rules, search ------------------------------------------------------

const unitCache = new Map();
async function unitInfo(name) {
  if (!name) return null;
  if (name.startsWith("army:")) return { inline: "army", weapons: [] };
  const rules = state.get("rules") || "";
  const key = `${rules}|${name}`;
  if (unitCache.has(key)) return unitCache.get(key);
  const [ok, data] = await getJSON(`/api/unit?name=${encodeURIComponent(name)}&rules=${rules}`);
  if (ok) unitCache.set(key, data);
  return ok ? data : null;
}

// A unit's weapons of this phase as checkboxes with counts: ``picks`` as the address has them
// ("4x Lascannon"; none: the datasheet's defaults, or none at all with ``none``). A weapon of
// several profiles (a plasma gun's standard and supercharge, frag/krak) is one box with one
// choice of profile: "the better" (the weapon's name, as `-w "Plasma gun"`: each model fires
// the profile of the higher expected damage against the target) or one profile (its own name,
// `-w "Plasma gun - supercharge"`).
function weaponLabels(a, melee, picks, none, who = "") {
  const family = (w) => w.weapon || w.name;
  const weapons = new Map();  // each weapon's profiles, in the datasheet's order
  for (const w of a.weapons) {
    if (w.melee !== melee) continue;
    const key = family(w).toLowerCase();
    if (!weapons.has(key)) weapons.set(key, []);
    const profiles = weapons.get(key);
    if (!profiles.some((x) => x.name === w.name)) profiles.push(w);
  }
  const names = (profiles) => [family(profiles[0]), ...profiles.map((w) => w.name)]
    .map((n) => n.toLowerCase());
  // the picks of this phase (those of the other phase do not apply to it)
  const picked = picks.map(parsePick)
    .filter(([n]) => [...weapons.values()].some((ps) => names(ps).includes(n.toLowerCase())));
  const items = [];
  for (const profiles of weapons.values()) {
    const w = profiles[0], name = family(w), several = profiles.length > 1;
    const pick = picked.find(([n]) => names(profiles).includes(n.toLowerCase()));
    const on = picked.length ? Boolean(pick) : !w.optional && !none;
    const box1 = el("input", { type: "checkbox", value: name, checked: on,
      "data-default": String(!w.optional), "data-weapon": name, "aria-label": `${name}${who}` });
    const n = el("input", { type: "number", class: "num", min: 1, max: w.max,
      "aria-label": `how many ${name}${who}`, placeholder: w.optional ? "1" : "all",
      value: pick && pick[1] ? pick[1] : null });
    const slot = w.slot ? ` (one of ${w.slot}: at most ${w.slot_max} together)` : "";
    const parts = [box1, el("span", { class: "wname",
      text: ` ${name}${w.optional ? " (optional)" : ""}` })];
    if (several) {
      const profile = (x) => x.name.replace(/^➤\s*/, "").slice(name.length).replace(/^\s*[-–:]\s*/, "")
        || x.name;
      const choice = el("select", { class: "profile", "aria-label": `profile of ${name}${who}` },
        el("option", { value: name, text: "the better for the target" }),
        ...profiles.map((x) => el("option", { value: x.name, text: profile(x) })));
      const chosen = pick && profiles.find((x) => x.name.toLowerCase() === pick[0].toLowerCase());
      if (chosen) choice.value = chosen.name;
      box1.value = choice.value;
      const note = el("span", { class: "note" });
      const show = () => {
        box1.value = choice.value;
        const x = profiles.find((p) => p.name === choice.value);
        note.textContent = x ? x.profile.split(" | ").slice(1).join(" | ")
          : "each model fires the profile of the higher expected damage against the target";
      };
      choice.addEventListener("change", show);
      show();
      parts.push(choice, note);
    } else {
      parts.push(el("span", { class: "note", text: w.profile.split(" | ").slice(1).join(" | ") }));
    }
    const title = profiles.map((x) => x.profile).join("\n") + slot;
    items.push(el("label", { title }, ...parts, n));
  }
  if (!items.length) items.push(el("span", { class: "note", text: `no ${melee ? "melee" : "ranged"} weapons` }));
  return items;
}

// The weapons ticked in a box: [picks as the address keeps them, none ticked]; no picks
// when they are the datasheet's defaults (each weapon ticked by default, the better profile).
function readPicks(container) {
  const boxes = [...container.querySelectorAll("input[type=checkbox]")];
  const count = (b) => b.closest("label").querySelector("input.num").value;
  const picked = boxes.filter((b) => b.checked)
    .map((b) => (count(b) ? `${count(b)}x ${b.value}` : b.value));
  const dflt = boxes.filter((b) => b.dataset.default === "true")
    .map((b) => b.dataset.weapon || b.value);
  const same = picked.join("\n") === dflt.join("\n");
  return [boxes.length && !same ? picked : [], boxes.length > 0 && !picked.length];
}

function renderWeapons() {
  const box = $("weapons");
  const a = info.attacker;
  const melee = state.get("ranged") === "false";
  if (!a) { box.replaceChildren(); return; }
  if (a.inline === "army") {
    box.replaceChildren(el("div", { class: "note", text: "a unit of the army list below: "
      + "its weapons as the list gives them (pick by name with the weapon parameter)" }));
    return;
  }
  if (a.inline) {
    box.replaceChildren(...a.weapons.map((w) => el("div", { class: "note",
      text: `${w.models}x ${w.profile}` })));
    return;
  }
  box.replaceChildren(...weaponLabels(a, melee, state.getAll("weapon"), state.get("no_weapon")));
  const size = a.size[0] === a.size[1] ? `${a.size[0]}` : `${a.size[0]}-${a.size[1]}`;
  $("models").placeholder = size;
}

const rulesCache = new Map();
// The named rules a unit may use: its faction's, and its datasheet's switches; those of
// ``chosen`` not among them are offered too (ticked).
async function factionRules(unit) {
  // the attacker's faction only (the target's rules are the defender's)
  const faction = unit && unit.faction ? unit.faction : "";
  if (faction && !rulesCache.has(faction)) {
    const [ok, data] = await getJSON(`/api/rules?faction=${encodeURIComponent(faction)}`);
    rulesCache.set(faction, ok ? data.rules : []);
  }
  return faction;
}
async function ruleItems(unit, chosen, who = "") {
  const faction = await factionRules(unit);
  const rules = [...(faction ? rulesCache.get(faction) : [])];
  const on = new Set(chosen);
  const items = [];
  let group = null;
  const names = new Set(rules.map((r) => r.name));
  // the unit's datasheet rules: the switches, as named rules (applied ones are said)
  const own = (unit && unit.rules ? unit.rules.attacker : []).filter((r) => r.state === "switch");
  for (const r of own) {
    if (names.has(r.name)) continue;
    names.add(r.name);
    rules.push({ name: r.name, faction: `${unit.name} (datasheet, when it applies)`,
      describe: r.text });
  }
  for (const name of on) if (!names.has(name)) rules.push({ name, faction: "chosen", describe: "" });
  for (const r of rules) {
    if (r.faction !== group) {
      group = r.faction;
      items.push(el("div", { class: "faction", text: group }));
    }
    items.push(el("label", { title: r.describe }, el("input", { type: "checkbox",
      value: r.name, checked: on.has(r.name), "aria-label": who ? `${r.name}${who}` : null }),
    ` ${r.name}`));
  }
  return [rules, items];
}

const renderRules = newestWins(async (superseded) => {
  await factionRules(info.attacker);
  if (superseded()) return superseded();
  const [rules, items] = await ruleItems(info.attacker, state.getAll("rule"));  // ticked: now
  RULES = rules;
  $("rules").replaceChildren(...items);
  return undefined;
});

// --- several units into one target -----------------------------------------------------------
// Each unit after the first is one "then" of the address: its JSON
// {"unit", "leader", "models", "weapons", "rules"} (a salvo's unit: unitOrder).

function parseSpec(spec) {
  const out = { unit: "", leader: "", models: "", weapons: [], rules: [] };
  try {
    const u = JSON.parse(spec);
    if (u && typeof u === "object") {
      for (const k of ["unit", "leader", "models"]) if (typeof u[k] === "string") out[k] = u[k];
      for (const k of ["weapons", "rules"]) if (Array.isArray(u[k])) out[k] = u[k].map(String);
    }
  } catch {  // a bare name
    out.unit = String(spec).trim();
  }
  return out;
}
function makeSpec(u) {
  return JSON.stringify({ unit: u.unit, leader: u.leader, models: u.models, weapons: u.weapons,
    rules: u.rules });
}

const thenInfo = [];
// The units after the first, as the form has them.
function readThen() {
  return [...document.querySelectorAll("#then fieldset.unit")].map((box) => {
    const i = Number(box.dataset.i);
    const [weapons, none] = readPicks(box.querySelector(".weapons"));
    const u = { unit: $(`then${i}`).value.trim(), leader: $(`then${i}_leader`).value.trim(),
      models: box.querySelector("input[name=then_models]").value.trim(), weapons,
      rules: [...box.querySelectorAll(".checks input:checked")].map((b) => b.value) };
    if (none) u.weapons = ["(none)"];
    return makeSpec(u);
  });
}

const renderThen = newestWins(async (superseded) => {
  const specs = state.getAll("then").map(parseSpec);
  const infos = await Promise.all(specs.map((u) => unitInfo(u.unit)));
  await Promise.all(infos.map(factionRules));  // then ruleItems below does not wait
  if (superseded()) return superseded();
  const melee = state.get("ranged") === "false";
  const blocks = [];
  for (const [i, u] of specs.entries()) {
    const a = infos[i];
    thenInfo[i] = a;
    const who = ` (unit ${i + 2})`;
    const weapons = el("div", { class: "weapons" });
    if (a && !a.inline) weapons.append(...weaponLabels(a, melee, u.weapons, false, who));
    else if (a && a.inline) weapons.append(el("div", { class: "note", text: a.inline === "army" ? "a unit of the army list" : a.weapons.map((w) => `${w.models}x ${w.profile}`).join("; ") }));
    const [, rules] = a && !a.inline ? await ruleItems(a, u.rules, who) : [[], []];
    const remove = el("button", { type: "button", class: "remove", "data-i": i, text: "remove" });
    remove.addEventListener("click", () => {
      const keep = state.getAll("then").filter((_, j) => j !== i);
      state.delete("then");
      keep.forEach((t) => state.append("then", t));
      history.replaceState(null, "", `#${state.toString()}`);
      renderThen().then(runKills);
    });
    const size = a && a.size ? (a.size[0] === a.size[1] ? `${a.size[0]}` : `${a.size[0]}-${a.size[1]}`) : "";
    blocks.push(el("fieldset", { class: "unit", "data-i": i, "data-unit": u.unit },
      el("legend", { text: `${i + 2}. then` }), remove,
      el("label", {}, "unit ", el("input", { id: `then${i}`, name: "then_unit", list: `then${i}-list`,
        value: u.unit, spellcheck: "false", placeholder: "a unit's name, or weapon rows" })),
      el("datalist", { id: `then${i}-list` }),
      el("div", { class: "row" },
        el("label", {}, "models ", el("input", { name: "then_models", type: "number", min: 1,
          class: "num", value: u.models || null, placeholder: size }))),
      el("label", {}, "its Leader ", el("input", { id: `then${i}_leader`, name: "then_leader",
        list: `then${i}_leader-list`, value: u.leader, spellcheck: "false",
        placeholder: "a CHARACTER unit leading it" })),
      el("datalist", { id: `then${i}_leader-list` }),
      el("p", { class: "note", text: a && !a.inline ? `${a.name} (${a.faction}): ${a.statline}` : "" }),
      weapons,
      rules.length ? el("details", {}, el("summary", { text: "its named rules" }),
        el("div", { class: "checks" }, ...rules)) : ""));
  }
  $("then").replaceChildren(...blocks);
  specs.forEach((_, i) => {
    found[`then${i}`] = found[`then${i}`] || [];
    found[`then${i}_leader`] = found[`then${i}_leader`] || [];
    refreshList(`then${i}`);
    refreshList(`then${i}_leader`);
  });
  return undefined;
});

// A side's rules from the datasheet: applied always, or not modelled (the switches are
// offered with the named rules).
function describeRules(rules) {
  if (!rules || !rules.length) return "";
  const by = (state) => rules.filter((r) => r.state === state).map((r) => r.name);
  const out = [];
  if (by("applied").length) out.push(`applied: ${by("applied").join(", ")}`);
  if (by("not modelled").length) out.push(`not modelled: ${by("not modelled").join(", ")}`);
  if (by("for others").length) out.push(`for other units: ${by("for others").join(", ")}`);
  return out.length ? `; rules from the datasheet ${out.join("; ")}` : "";
}

const refreshUnits = newestWins(async (superseded) => {
  const asked = [state.get("attacker"), state.get("target")];
  const [a, t] = await Promise.all(asked.map(unitInfo));
  if (superseded()) return superseded();
  // another unit named since (its own drawing is on its way, 250 ms after the typing): not this
  if (state.get("attacker") !== asked[0] || state.get("target") !== asked[1]) return undefined;
  info.attacker = a;
  info.target = t;
  $("target-info").textContent = !t ? "" : t.inline === "army" ? "a unit of the army list below"
    : t.inline ? t.profile : `${t.name} (${t.faction}): ${t.statline}`
      + describeRules(t.rules && t.rules.defender);
  if (t && !t.inline) $("target_models").placeholder = `${t.size[0]}`;
  $("attacker-info").textContent = !a || a.inline ? "" : `${a.name} (${a.faction}): ${a.statline}; `
    + `${a.size[0] === a.size[1] ? a.size[0] : `${a.size[0]}-${a.size[1]}`} models`
    + (a.points.length ? `; ${a.points.map(([m, p]) => `${m} models ${p} pts`).join(", ")}` : "")
    + (a.abilities && a.abilities.length ? `; abilities: ${a.abilities.join(", ")}` : "")
    + describeRules(a.rules && a.rules.attacker);
  renderWeapons();
  LEADERS.forEach(refreshList);
  return renderRules();
});

// The names offered as you type: the units of a pasted army list ("army:<row>"), the bundled
// units, and what the BattleScribe search found for the text typed.
let armyNames = [];
const found = { attacker: [], target: [], leader: [], attacker_leader: [] };
// The faction of a "Faction:Unit" name (the data's), for the Leaders offered with it.
const factionOf = (name) => (name && name.includes(":") && !isRows(name) ? name.split(":")[0] : "");
const LEADERS = ["leader", "attacker_leader"];

function fillList(list, names) {
  $(list).replaceChildren(...names.map((n) => el("option", { value: n })));
}

// The Leaders a unit's datasheet lists (its Bodyguard's side: the data's Leader lists).
function listedLeaders(id) {
  const then = /^then(\d+)_leader$/.exec(id);
  const unit = id === "attacker_leader" ? info.attacker : id === "leader" ? info.target
    : then ? thenInfo[Number(then[1])] : null;
  return unit && unit.led_by && unit.led_by.length ? unit.led_by : null;
}

function refreshList(id) {
  const listed = listedLeaders(id);
  if (listed) {  // offered from the unit's Leader list (any name may still be typed)
    fillList(`${id}-list`, listed);
    $(id).placeholder = `one of the ${listed.length} Leaders its datasheet lists`;
    return;
  }
  const leader = LEADERS.includes(id) || id.endsWith("_leader");
  if (leader) $(id).placeholder = "a CHARACTER unit leading it";
  const q = $(id).value.trim().toLowerCase();
  let names = [...(leader ? [] : armyNames),
    ...UNITS.filter((u) => !leader || u.leader).map((u) => u.name)];
  if (found[id].length) names = [...names.filter((n) => n.toLowerCase().includes(q)), ...found[id]];
  fillList(`${id}-list`, names);
}

function offerArmy(labels) {
  armyNames = labels.map((l) => `army:${l}`);
  ["attacker", "target"].forEach(refreshList);
}

const searchers = {};
function search(input) {
  searchers[input.id] = searchers[input.id] || debounce(async () => {
    const q = input.value.trim();
    if (!searchable || q.length < 2 || isRows(q) || q.startsWith("army:") || listedLeaders(input.id)) {
      found[input.id] = [];
      refreshList(input.id);
      return;
    }
    const rules = state.get("rules") || "";
    // a Leader of the data: of its unit's faction
    const then = /^then(\d+)_leader$/.exec(input.id);
    const faction = input.id === "attacker" ? $("faction").value
      : input.id === "attacker_leader" ? factionOf(state.get("attacker"))
        : input.id === "leader" ? factionOf(state.get("target"))
          : then ? factionOf($(`then${then[1]}`).value) : "";
    const [ok, data, status] = await getJSON(
      `/api/search?q=${encodeURIComponent(q)}&rules=${rules}`
      + (faction ? `&faction=${encodeURIComponent(faction)}` : ""));
    if (status === 501) searchable = false;
    if (input.value.trim() !== q) return;  // typed on since: a newer search answers
    found[input.id] = ok ? data.units : [];
    refreshList(input.id);
  }, 200);
  searchers[input.id]();
}

// --- the attack -------------------------------------------------------------------------------

let killsController = null;

async function runKills() {
  const q = killsQuery();
  const firstWeapons = state.getAll("weapon");
  if (!q.target || !(state.get("attacker") || firstWeapons.some(isRows))) {
    $("answer").hidden = true;
    showError($("error"), "");
    return;
  }
  if (killsController) killsController.abort();
  if (state.get("no_weapon")) {
    $("answer").hidden = true;
    showError($("error"), "weapons: none picked; pick at least one weapon of the unit");
    return;
  }
  const empty = q.kind === "salvo"
    ? q.units.findIndex((u) => (u.weapons || []).includes("(none)")) : -1;
  if (empty >= 0) {
    $("answer").hidden = true;
    showError($("error"), `unit ${empty + 1}: no weapon picked; pick at least one of its weapons`);
    return;
  }
  killsController = new AbortController();
  const mine = killsController;  // a newer request aborts it: its answer is then not shown
  $("busy").hidden = false;
  const { kind, ...query } = q;
  const request = ask(kind, query, killsController.signal);
  try {
    const [ok, data] = await request;
    if (mine.signal.aborted) return;  // read before the abort: stale, a newer one is coming
    if (!ok) {
      showError($("error"), data.message || data.error);
      $("answer").hidden = true;
    } else {
      showError($("error"), "");
      renderKills(data);
      $("answer").hidden = false;
    }
  } catch (e) {
    if (e.name !== "AbortError") showError($("error"), `mathhammer: error: ${e.message}`);
  } finally {
    if (!mine.signal.aborted) $("busy").hidden = true;
  }
}

// The exact value, short ("≈" when long); a click shows the whole fraction.
function exactCell(value) {
  const f = frac(value);
  const td = el("td", { class: "exact", title: value, text: short(f), "data-exact": value });
  td.addEventListener("click", () => {
    const open = td.classList.toggle("open");
    td.textContent = open ? value : short(f);
  });
  return td;
}

function valueRow(label, value) {
  const f = frac(value);
  return el("tr", { "data-step": label }, el("td", { text: label }),
    el("td", { text: num(f).toFixed(3), title: exact(f) }), exactCell(exact(f)));
}

function probRow(label, value) {
  const f = frac(value);
  return el("tr", { "data-step": label }, el("td", { text: label }),
    el("td", { text: percent(f), title: exact(f) }), exactCell(exact(f)));
}

function describeOptions(options) {
  const out = [];
  for (const o of SCHEMA) {
    if (o.name === "rules") continue;
    const v = options[o.name];
    const d = o.default === "" ? null : o.default;
    if (JSON.stringify(v) === JSON.stringify(d) || (Array.isArray(v) && !v.length)) continue;
    out.push(v === true ? o.name : `${o.name}=${Array.isArray(v) ? v.join(", ") : v}`);
  }
  return out.join(", ") || "none";
}

let lastKills = null;

// Several units into one target: P(destroyed) after each unit, the end, the kills.
function renderSalvo(data) {
  const names = data.attackers.map((a) => a.attacker);
  $("title").textContent = `${names.join(" then ")} → ${data.target.name}`;
  $("header").textContent = `rules ${data.attackers[0].rules}; in order: `
    + data.attackers.map((a, i) => `${i + 1}. ${a.attacker}`
      + `${a.points ? ` (${a.points} pts)` : ""}: options: ${describeOptions(a.options)}; `
      + `named rules: ${a.named_rules.join(", ") || "none"}; weapons: `
      + `${a.weapons.map((w) => `${w.models}x ${w.profile}`).join("; ")}`).join(". ")
    + `. Target: ${data.target.profile}.`;
  const warned = data.warnings || [];
  $("warnings").hidden = !warned.length;
  $("warnings").replaceChildren(...warned.map((w) => el("li", { text: w.replace(/^warning: /, "") })));
  const rows = [el("tr", {}, el("th", { text: "at the end" }), el("th", { text: "value" }),
    el("th", { text: "exact" }))];
  rows.push(valueRow("wounds lost", data.mean.wounds_lost));
  rows.push(valueRow("kills", data.mean.kills));
  rows.push(valueRow("models left", data.mean.models_left));
  rows.push(probRow("P(destroyed)", data.destroyed));
  $("steps").replaceChildren(...rows);
  const d = frac(data.destroyed);
  $("destroyed").textContent = percent(d);
  $("destroyed").title = exact(d);
  renderDistribution();
  $("turns-box").hidden = false;
  $("turns-title").textContent = "P(destroyed) after each unit";
  renderSteps(data.after_units.map((u, i) => ({ label: `${i + 1}. ${u.attacker}`,
    destroyed: u.destroyed, models_left_mean: u.models_left_mean })), "unit");
  const line = $("until-line");
  line.hidden = !data.until;
  if (data.until) {
    const k = data.until.units;
    line.textContent = `P(destroyed) ≥ ${percent(frac(data.until.p))}: ` + (k === null
      ? `not reached even with all ${names.length} units`
      : `the first ${k} unit${k === 1 ? "" : "s"} (${names.slice(0, k).join(", ")})`);
  }
}

function renderKills(data) {
  lastKills = data;
  if ("attackers" in data) { renderSalvo(data); return; }
  $("until-line").hidden = true;
  $("turns-title").textContent = "P(destroyed) by step";
  const seq = "steps" in data;
  $("title").textContent = `${data.attacker} → ${data.target.name}`;
  const weapons = data.weapons.map((w) => `${w.models}x ${w.profile}`).join("; ");
  $("header").textContent = `rules ${data.rules}; options: ${describeOptions(data.options)}; `
    + `named rules: ${data.named_rules.join(", ") || "none"}`
    + (seq && data.turns ? `; ${data.turns} turns, reanimation ${data.reanimation ? "on" : "off"}` : "")
    + `. Weapons: ${weapons}. Target: ${data.target.profile}.`
    + (data.unit_rules && data.unit_rules.length ? ` Rules from the datasheets applied: ${data.unit_rules.join(", ")}.` : "")
    + (data.not_modelled && data.not_modelled.length ? ` Not modelled: ${data.not_modelled.map((r) => (typeof r === "string" ? r : r.name || JSON.stringify(r))).join(", ")}.` : "")
    + (data.left_out && data.left_out.length ? ` Left out: ${data.left_out.map((x) => x.text).join("; ")}.` : "");
  const warned = data.warnings || [];  // the guesses, said out loud
  $("warnings").hidden = !warned.length;
  $("warnings").replaceChildren(...warned.map((w) => el("li", { text: w.replace(/^warning: /, "") })));
  const rows = [el("tr", {}, el("th", { text: "expected" }), el("th", { text: "value" }),
    el("th", { text: "exact" }))];
  const counters = seq ? data.attack : data;
  if (counters) for (const [key, label] of COUNTERS) rows.push(valueRow(label, counters.mean[key]));
  if (seq) {
    rows.push(el("tr", {}, el("th", { text: "at the end" }), el("th"), el("th")));
    rows.push(valueRow("wounds lost", data.mean.wounds_lost));
    rows.push(valueRow("kills", data.mean.kills));
    rows.push(valueRow("models left", data.mean.models_left));
  }
  for (const g of data.group_kills || []) rows.push(valueRow(`  kills of ${g.name}`, g.mean));
  rows.push(probRow("P(destroyed)", data.destroyed));
  if (data.character_destroyed) rows.push(probRow("P(CHARACTER dead)", data.character_destroyed));
  $("steps").replaceChildren(...rows);
  const d = frac(data.destroyed);
  $("destroyed").textContent = percent(d);
  $("destroyed").title = exact(d);
  renderDistribution();
  $("turns-box").hidden = !seq;
  if (seq) renderSteps(data.steps);
}

function currentPmf() {
  const data = lastKills;
  const what = $("dist").value;
  if ("steps" in data) return [what, data.pmf[what === "kills" ? "kills" : "wounds_lost"]];
  return [what, data.pmf[what]];
}

function renderDistribution() {
  if (!lastKills) return;
  const [what, pmf] = currentPmf();
  const pairs = pmfPairs(pmf);
  const k = Math.max(0, Number($("k").value) || 0);
  const p = atLeast(pairs, k);
  $("odds").textContent = percent(p);
  $("odds").title = exact(p);
  $("odds-exact").textContent = `P(${what} >= ${k}) = ${exact(p)}`;
  drawChart($("chart"), pairs, what);
  const rows = [el("tr", {}, ...[what, "P(=k)", "P(>=k)", "exact P(=k)", "exact P(>=k)"]
    .map((h) => el("th", { text: h })))];
  for (const [j, q] of pairs) {
    const ge = atLeast(pairs, j);
    rows.push(el("tr", { "data-k": j }, el("td", { text: j }),
      el("td", { text: percent(q), title: exact(q) }),
      el("td", { text: percent(ge), title: exact(ge) }), exactCell(exact(q)), exactCell(exact(ge))));
  }
  $("dist-table").replaceChildren(...rows);
}

// Bars for P(=k), a line for P(>=k); hover a column for both, exact.
function drawChart(box, pairs, what) {
  const W = 640, H = 230, L = 44, R = 10, T = 10, B = 34;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "aria-label": `distribution of ${what}` });
  const y = (p) => T + (H - T - B) * (1 - p);
  for (const g of [0, 0.25, 0.5, 0.75, 1]) {
    s.append(svg("line", { x1: L, x2: W - R, y1: y(g), y2: y(g), class: "axis",
      "stroke-opacity": g ? 0.25 : 1 }));
    const t = svg("text", { x: L - 6, y: y(g) + 4, "text-anchor": "end" });
    t.textContent = `${g * 100}%`;
    s.append(t);
  }
  const n = pairs.length, band = (W - L - R) / Math.max(n, 1);
  const points = [];
  const labelEvery = Math.ceil(n / 24);
  pairs.forEach(([k, p], i) => {
    const ge = atLeast(pairs, k);
    const x = L + i * band;
    const bar = svg("rect", { x: x + band * 0.15, width: band * 0.7, y: y(num(p)),
      height: Math.max(0, y(0) - y(num(p))), class: "bar", "data-k": k });
    const hit = svg("rect", { x, width: band, y: T, height: H - T - B, fill: "transparent",
      class: "hit", "data-k": k });
    const text = `${what} = ${k}: P(=${k}) = ${percent(p)} = ${exact(p)}; `
      + `P(>=${k}) = ${percent(ge)} = ${exact(ge)}`;
    const title = svg("title");
    title.textContent = text;
    hit.append(title);
    hit.addEventListener("mouseenter", () => bar.classList.add("hot"));
    hit.addEventListener("mouseleave", () => bar.classList.remove("hot"));
    tip(hit, text);
    s.append(bar);
    points.push([x + band / 2, y(num(ge))]);
    if (i % labelEvery === 0) {
      const t = svg("text", { x: x + band / 2, y: H - B + 14, "text-anchor": "middle" });
      t.textContent = k;
      s.append(t);
    }
    s.append(hit);
  });
  const line = svg("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "line" });
  s.insertBefore(line, s.querySelector(".hit"));
  for (const [cx, cy] of points) s.insertBefore(svg("circle", { cx, cy, r: 3, class: "dot" }), s.querySelector(".hit"));
  const cap = svg("text", { x: (W + L) / 2, y: H - 4, "text-anchor": "middle" });
  cap.textContent = `${what}: bars P(=k), line P(>=k)`;
  s.append(cap);
  box.replaceChildren(s);
}

function renderSteps(steps, what = "step") {
  const rows = [el("tr", {}, ...[`after ${what}`, "P(destroyed)", "models left", "exact P(destroyed)"]
    .map((h) => el("th", { text: h })))];
  for (const st of steps) {
    const d = frac(st.destroyed);
    rows.push(el("tr", { "data-step": st.label }, el("td", { text: st.label }),
      el("td", { text: percent(d), title: exact(d) }),
      el("td", { text: num(frac(st.models_left_mean)).toFixed(3), title: st.models_left_mean }),
      exactCell(exact(d))));
  }
  $("turn-table").replaceChildren(...rows);
  const pairs = steps.map((st, i) => [i, frac(st.destroyed)]);
  drawSteps($("turn-chart"), steps, pairs);
}

function drawSteps(box, steps, pairs) {
  const W = 640, H = 160, L = 44, R = 10, T = 10, B = 30;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "aria-label": "P(destroyed) after each step" });
  const y = (p) => T + (H - T - B) * (1 - p);
  for (const g of [0, 0.5, 1]) {
    s.append(svg("line", { x1: L, x2: W - R, y1: y(g), y2: y(g), class: "axis", "stroke-opacity": g ? 0.25 : 1 }));
    const t = svg("text", { x: L - 6, y: y(g) + 4, "text-anchor": "end" });
    t.textContent = `${g * 100}%`;
    s.append(t);
  }
  const band = (W - L - R) / pairs.length;
  pairs.forEach(([i, p]) => {
    const x = L + i * band;
    const bar = svg("rect", { x: x + band * 0.15, width: band * 0.7, y: y(num(p)),
      height: Math.max(0, y(0) - y(num(p))), class: "bar" });
    const text = `after ${steps[i].label}: P(destroyed) = ${percent(p)} = ${exact(p)}`;
    const title = svg("title");
    title.textContent = text;
    bar.append(title);
    tip(bar, text);
    const t = svg("text", { x: x + band / 2, y: H - B + 14, "text-anchor": "middle" });
    t.textContent = steps[i].label;
    s.append(bar, t);
  });
  box.replaceChildren(s);
}

// --- the comparison -------------------------------------------------------------------------

let compareController = null;

async function runCompare() {
  const army = state.get("army") || (state.get("army_file") ? { base64: state.get("army_file") } : null);
  const rows = state.getAll("row");
  if (!army && armyNames.length) offerArmy([]);
  if (!army && !rows.length) {
    $("grid").replaceChildren();
    showError($("compare-error"), "");
    return;
  }
  if (compareController) compareController.abort();
  compareController = new AbortController();
  const mineCompare = compareController;
  const q = compareQuery();
  if (army) {
    q.army = army;
    q.allow_unresolved = true;  // the lines left out are listed under the table
  } else {
    q.attackers = rows;
    if (state.get("by")) q.by = state.get("by");
  }
  const request = ask("compare", q, compareController.signal);
  $("compare-busy").hidden = false;
  try {
    const [ok, data] = await request;
    if (mineCompare.signal.aborted) return;  // stale: a newer comparison was asked
    if (!ok) {
      showError($("compare-error"), data.message || data.error);
      $("grid").replaceChildren();
      $("army-info").hidden = true;
      if (army) offerArmy([]);  // a list that does not parse offers no units
    } else {
      showError($("compare-error"), "");
      renderGrid(data);
      renderArmy(data.army);
      if (army) offerArmy(data.rows.map((r) => r.label));
    }
  } catch (e) {
    if (e.name !== "AbortError") showError($("compare-error"), `mathhammer: error: ${e.message}`);
  } finally {
    $("compare-busy").hidden = true;
  }
}

// What the army reader says of a list: points read / list total, and the lines it could not
// resolve (each with the names closest to it).
function renderArmy(army) {
  const box = $("army-info");
  box.hidden = !army;
  if (!army) return;
  const parts = [];
  if ("points" in army) {
    const total = army.declared_points ? ` / ${army.declared_points}` : "";
    parts.push(el("p", { class: "points", text: `points read${total ? " / list total" : ""}: `
      + `${army.points}${total}${army.name ? ` (${army.name})` : ""}` }));
  }
  const bad = army.unresolved || [];
  parts.push(el("p", { class: bad.length ? "unresolved" : "", text: bad.length
    ? `${bad.length} line${bad.length > 1 ? "s" : ""} not resolved (left out of the table):`
    : "every line resolved" }));
  if (bad.length) {
    parts.push(el("ul", {}, ...bad.map((u) => el("li", { class: "unresolved",
      text: `line ${u.line}: ${u.text}${u.reason ? `: ${u.reason}` : ""}`
        + `${u.closest && u.closest.length ? ` (closest: ${u.closest.join(", ")})` : ""}` }))));
  }
  // the data files that lack names of the list (an older release than the list's?)
  for (const f of army.lacking || []) parts.push(el("p", { class: "lacking", text: f.note }));
  box.replaceChildren(...parts);
}

function cellText(value, metric) {
  if (value === null) return "-";
  const f = frac(value.exact);
  return metric === "destroyed" ? percent(f, 1) : num(f).toFixed(2);
}

// The same shading as `mathhammer table --format html`: white (lowest) to green (highest).
function shade(td, v, lo, hi) {
  if (v === null || lo === null || hi === lo) return;
  const t = (v - lo) / (hi - lo), light = 97 - 47 * t;
  td.style.background = `hsl(130, 55%, ${light.toFixed(0)}%)`;
  if (light < 62) td.style.color = "#fff";
}

function renderGrid(data) {
  const cols = data.columns.map((_, j) => data.rows.map((r) => r.values[j])
    .filter((v) => v !== null).map((v) => v.float));
  const ranges = cols.map((c) => (c.length ? [Math.min(...c), Math.max(...c)] : [null, null]));
  const head = el("tr", {}, el("th", { scope: "col", text: "attacker" }),
    ...data.columns.map((c) => el("th", { scope: "col", title: c.target, text: c.label })));
  const body = data.rows.map((r) => el("tr", {},
    el("th", { scope: "row", title: r.detail || null, text: r.label }),
    ...r.values.map((v, j) => {
      const td = el("td", { title: v === null ? null : exact(frac(v.exact)),
        text: cellText(v, data.metric) });
      shade(td, v === null ? null : v.float, ...ranges[j]);
      return td;
    })));
  const table = el("table", {}, el("caption", {
    text: `${data.title || `${data.metric}: ${data.description}`}${data.army ? " (army list)" : ""}` }),
  el("thead", {}, head), el("tbody", {}, ...body));
  $("grid").replaceChildren(table);
}

// --- the plan of a phase ------------------------------------------------------------------------

// The planner of a phase is plan.js (readPlan, writePlan, runPlan, runPlanSoon).

// --- wiring -----------------------------------------------------------------------------------

const runAll = debounce(() => { runKills(); runCompare(); runPlanSoon(); }, 120);
const runKillsSoon = debounce(runKills, 120);
// what only the attack reads (the comparison has its own units)
const ATTACK_ONLY = ["attacker", "attacker_leader", "target", "leader", "models",
  "target_models", "turns", "reanimation", "until"];
const renderThenSoon = debounce(async () => { await renderThen(); saveState(); runKills(); }, 250);
const runCompareSoon = debounce(runCompare, 300);
const refreshSoon = debounce(async () => { await refreshUnits(); }, 250);

function onChange(ev) {
  const id = ev.target.id || ev.target.name;
  const then = ev.target.closest("#then fieldset.unit");
  if (then) {  // a unit after the first
    const i = Number(then.dataset.i);
    if (id === `then${i}` && ev.target.value.trim() === then.dataset.unit) {
      saveState();  // the same unit (a change event after its input events)
    } else if (id === `then${i}`) {  // another unit: the old one's wargear and size do not apply
      then.dataset.unit = ev.target.value.trim();
      then.querySelector(".weapons").replaceChildren();
      then.querySelector("input[name=then_models]").value = "";
      then.querySelector(".checks")?.replaceChildren();
      search(ev.target);
      saveState();
      renderThenSoon();
    } else if (id === `then${i}_leader`) {
      search(ev.target);
      saveState();
    } else saveState();
    runKillsSoon();
    return;
  }
  const before = state;
  saveState();
  if (id === "k" || id === "dist") { renderDistribution(); return; }
  if (id === "army" && [state.get("attacker"), state.get("target")]
    .some((v) => v && v.startsWith("army:"))) runAll();
  if (["row", "vs", "army", "metric", "by"].includes(id)) {
    runCompareSoon();
    return;
  }
  if (["attacker", "target", "leader", "attacker_leader"].includes(id)) {
    // the change event as the box loses focus, after the input events of the same name: the
    // unit is the one already drawn (its wargear and size picked since are kept)
    if (ev.type === "change" && ev.target.value.trim() === (before.get(id) || "")) return;
    if (id === "attacker") {  // the old unit's weapons and size do not apply to the new one
      info.attacker = null;
      $("weapons").replaceChildren();
      $("models").value = "";
      saveState();
    }
    if (id === "target") { $("target_models").value = ""; saveState(); }
    search(ev.target);
    refreshSoon();
  }
  if (ev.target.name === "phase") { renderWeapons(); saveState(); renderThenSoon(); }
  if (id === "faction") { loadFaction(); return; }
  if (id === "rules" && ev.type === "change" && factionsLoaded) loadFactions();
  if (ATTACK_ONLY.includes(id) || ev.target.closest("#weapons")) runKillsSoon(); else runAll();
}

// The factions of the installed data, and the units of the one chosen (one search call).
let factionsLoaded = false;
async function loadFactions() {
  factionsLoaded = true;
  const [ok, data] = await getJSON(`/api/factions?rules=${state.get("rules") || ""}`);
  const names = ok ? data.factions : [];
  const keep = state.get("faction") || "";
  $("faction").replaceChildren(el("option", { value: "", text: "(any: type a name)" }),
    ...names.map((f) => el("option", { value: f, text: f })));
  $("faction").value = names.includes(keep) ? keep : "";
}
async function loadFaction() {
  const f = $("faction").value;
  if (!f) { found.attacker = []; refreshList("attacker"); return; }
  const [ok, data] = await getJSON(`/api/search?q=&faction=${encodeURIComponent(f)}`
    + `&rules=${state.get("rules") || ""}`);
  found.attacker = ok ? data.units : [];
  fillList("attacker-list", found.attacker);
}

// An uploaded list (.ros, .rosz, .json, text) is read here, in memory, and sent as base64.
async function base64Of(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}
async function uploadArmy(file) {
  const content = await base64Of(file);
  $("army").value = "";
  state.delete("army");
  state.set("army_file", content);
  history.replaceState(null, "", `#${state.toString()}`);
  runCompare();
}

async function start() {
  const [[, opts], [, units], [, health]] = await Promise.all([getJSON("/api/options"),
    getJSON("/api/units"), getJSON("/api/health")]);
  SCHEMA = opts.options;
  UNITS = units.units;
  $("version").textContent = health.mathhammer;
  buildOptions();
  $("metric").replaceChildren(...opts.metrics.map((m) => el("option", { value: m, text: m })));
  ["attacker", "target", "leader", "attacker_leader"].forEach(refreshList);
  state = new URLSearchParams(location.hash.slice(1) || DEFAULT);
  writeForm(state);
  // the factions are listed when the picker is first used (or the address names one)
  await Promise.all([refreshUnits(), renderThen(), state.get("faction") ? loadFactions() : null]);
  $("add-unit").addEventListener("click", async () => {
    state.append("then", "");
    await renderThen();
    const n = state.getAll("then").length - 1;
    $(`then${n}`).focus();
  });
  for (const ev of ["focus", "mousedown", "keydown"]) {
    $("faction").addEventListener(ev, () => { if (!factionsLoaded) loadFactions(); });
  }
  saveState();
  $("army-file").addEventListener("change", (ev) => {
    ev.stopPropagation();
    if (ev.target.files.length) uploadArmy(ev.target.files[0]);
  });
  await startPlan(opts.plan_limits);
  $("form").addEventListener("input", onChange);
  $("form").addEventListener("change", onChange);
  $("result").addEventListener("input", onChange);
  $("compare").addEventListener("input", onChange);
  $("compare").addEventListener("change", onChange);
  window.addEventListener("hashchange", async () => {
    state = new URLSearchParams(location.hash.slice(1));
    writeForm(state);
    await Promise.all([refreshUnits(), renderThen()]);
    runKills();
    runCompare();
    runPlan();
  });
  await Promise.all([runKills(), runCompare(), runPlan()]);
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);  // after plan.js too
