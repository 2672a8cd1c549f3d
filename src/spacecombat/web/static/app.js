/* spacecombat: the battle calculator page.
 *
 * Plain JavaScript, no build step. Everything the form offers (unit ids, cards, upgrades,
 * technologies, factions, laws, anomalies, rule options, policy fields) comes from
 * GET /api/v1/rulesets; nothing here lists units. The page builds a scenario from the form,
 * asks POST /api/v1/odds and draws the report; "play one battle" asks POST /api/v1/resolve;
 * "share" gives /?s=<scenario id>&r=<result id>, which opens the same scenario and result.
 *
 * Exact numbers are kept in the DOM: every figure is a <data value="..."> element (the
 * shortest text that reads back as the same double), so tests and tools can compare them.
 */
"use strict";

(function () {
  const API = "/api/v1";
  const SIDES = ["attacker", "defender"];
  const COLOURS = {
    attacker: "#b8322a",
    defender: "#2860a8",
    draw: "#7d838c",
    no_combat: "#c9a227",
    mixed: "#7b4fa0",
    attacker_retreat: "#d98a83", // a retreat: its own segment, paler than the side's colour
    defender_retreat: "#86a7d6",
  };
  const HOUSE_COLOURS = ["#b8322a", "#2860a8", "#2f8a4c", "#c9a227", "#7b4fa0", "#1c8c94", "#a0522d"];
  /** The kinds of card a TI4 side may hold: (kind in the catalogue, scenario list, legend). */
  const CARD_LISTS = [
    ["action_card", "action_cards", "Action cards"],
    ["promissory_note", "promissory_notes", "Promissory notes"],
    ["leader", "leaders", "Leaders"],
    ["relic", "relics", "Relics"],
  ];

  /** What the planets panel says, by battle kind. */
  const PLANETS_HELP = {
    invasion: "An invasion of one planet needs none: the defender's units above are the "
      + "planet's. For several planets, list each with its defenders and the ground forces the "
      + "attacker commits to it (e.g. \u201c2 GROUND, 1 pds\u201d), and, when need be, the "
      + "defender's units already damaged there and the attacker's ships that bombard it.",
    tactical: "The tactical action: the space combat against the defender's ships above (its "
      + "PDS on these planets fire space cannon offense), then, if the attacker holds the "
      + "system, the invasion of each planet listed with the ground forces left. List each "
      + "planet with its defenders (e.g. \u201c2 GROUND, 1 pds\u201d) and what the attacker "
      + "commits to it; a commit may name more than the space combat leaves (those left land, "
      + "in the policy's planet order). No planet: a space battle.",
  };

  // Probabilities below this are left out of the rounds chart (they stay in the table).
  const ROUNDS_SHOWN_FROM = 5e-4;
  /** the states after N rounds shown (most likely first; the rest summed) */
  const AFTER_ROUNDS_SHOWN = 6;
  /** the most likely fleets left shown by name for each side (the rest summed) */
  const FLEETS_SHOWN = 3;

  const page = {
    catalogue: {}, // ruleset id -> its catalogue
    ruleset: null, // the current ruleset id
    odds: null, // the last odds response (result_id, scenario_id, report)
    charts: {}, // canvas id -> Chart
    // scenario keys the form has no control for, kept from a loaded scenario and sent back
    extra: { top: {}, sides: {}, system: {} },
    ready: false, // the form is built and filled: edits recompute from now on
    logKey: null, // the battle the log shown was played from (formKeys().battle)
    // the odds' flow (computeOdds): the request under way, the one shown, the last edit
    live: {
      controller: null, // the AbortController of the odds request under way
      seq: 0, // bumped by every request and abandonment: only the latest answer is shown
      started: 0, // performance.now() when the request under way was sent
      askedKey: null, // the request under way (its JSON text)
      shownKey: null, // the request whose answer is shown
      lastMs: 0, // how long the last answer took
      lastEdit: -Infinity, // performance.now() of the last edit
      timer: null, // the pending recomputation, after a pause in the editing
      other: false, // "play one battle" or "share" at work
    },
  };

  const $ = (id) => document.getElementById(id);

  /* ---- small DOM helpers ------------------------------------------------------------- */

  const { el } = window.spacecombatDom; // dom.js

  /** A label and its control, in a div.field. */
  function field(labelText, control, extraClass) {
    return el("div", { className: "field" + (extraClass ? " " + extraClass : "") },
      el("label", { for: control.id, text: labelText }), control);
  }

  function checkbox(id, labelText, attrs) {
    const box = el("input", Object.assign({ type: "checkbox", id }, attrs || {}));
    return el("div", { className: "check" }, box, el("label", { for: id, text: labelText }));
  }

  function select(id, options, attrs) {
    const node = el("select", Object.assign({ id }, attrs || {}));
    for (const option of options) {
      node.append(el("option", { value: option.value, disabled: option.disabled || false,
        text: option.label }));
    }
    return node;
  }

  /** "war_sun" -> "War sun", "pds" -> "PDS". */
  function pretty(id) {
    if (/^[a-z]{1,3}$/.test(id) && !["mech"].includes(id)) return id.toUpperCase();
    const words = String(id).replace(/_/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function percent(p, digits) {
    return (100 * p).toFixed(digits === undefined ? 2 : digits) + "%";
  }

  /** A <data> element: the exact value in `value`, a readable one as text. */
  function dataValue(value, text, key) {
    return el("data", { value: String(value), dataset: key ? { key } : undefined, text });
  }

  function fleetText(units) {
    const parts = Object.entries(units || {}).map(([unit, n]) => `${n} ${unit}`);
    return parts.length ? parts.join(", ") : "none";
  }

  function sizeOf(units) {
    return Object.values(units || {}).reduce((a, b) => a + b, 0);
  }

  /* ---- the catalogue ------------------------------------------------------------------ */

  /** Entries of a catalogue table (a mapping by id or a list of ids or records) as
   *  [{id, name, implemented, ...}]. */
  function entries(table) {
    if (!table) return [];
    const list = Array.isArray(table)
      ? table.map((item) => (typeof item === "string" ? { id: item } : item))
      : Object.entries(table).map(([id, item]) => Object.assign({ id }, item));
    return list.map((item) => Object.assign({ name: pretty(item.id), implemented: true }, item));
  }

  function cardsOf(unit) {
    const cards = (page.catalogue[page.ruleset] || {}).cards || {};
    return Object.values(cards).filter((card) => (card.type || card.id) === unit);
  }

  function genericCard(unit) {
    const cards = (page.catalogue[page.ruleset] || {}).cards || {};
    return cards[unit] || cardsOf(unit)[0] || {};
  }

  function canSustain(unit) {
    const cards = cardsOf(unit);
    return cards.length === 0 || cards.some((card) => card.sustain_damage);
  }

  function unitName(unit) {
    const card = genericCard(unit);
    const name = card.name ? card.name.replace(/\s+\(.*\)$/, "").replace(/\s+I$/, "") : "";
    return name || pretty(unit);
  }

  function cardSummary(unit) {
    const card = genericCard(unit);
    const bits = [];
    if (card.combat && card.combat.hit) {
      bits.push(`hits on ${card.combat.hit}` + (card.combat.dice > 1 ? ` ×${card.combat.dice}` : ""));
    }
    if (card.sustain_damage) bits.push("sustain");
    if (card.cost !== undefined) bits.push(`cost ${card.cost}`);
    return bits.join(", ");
  }

  /** The properties of a side field that is an object of whole numbers (its JSON Schema
   *  definition has only integer properties), or null. */
  function countsObject(prop, definitions) {
    const options = prop.anyOf ? prop.anyOf.filter((p) => p.type !== "null") : [prop];
    if (options.length !== 1 || !options[0].$ref) return null;
    const found = definitions[options[0].$ref.split("/").pop()];
    if (!found || found.type !== "object" || !found.properties) return null;
    const props = Object.values(found.properties);
    return props.length && props.every((p) => p.type === "integer") ? found.properties : null;
  }

  /** A JSON Schema property's kind: {kind: boolean|integer|number|enum|list|counts|retreat|
   *  other}; counts: whole numbers by unit (``policy.keep``), typed in fleet notation. */
  function schemaKind(prop) {
    const options = prop.anyOf ? prop.anyOf.filter((p) => p.type !== "null") : [prop];
    if (options.some((p) => p.$ref)) return { kind: "retreat", options };
    if (options.length !== 1) return { kind: "other" };
    const only = options[0];
    if (only.enum) return { kind: "enum", values: only.enum };
    if (only.type === "array" && only.items && only.items.type === "string") return { kind: "list" };
    if (only.type === "object" && only.additionalProperties
      && only.additionalProperties.type === "integer") return { kind: "counts" };
    if (["boolean", "integer", "number"].includes(only.type)) {
      return { kind: only.type, min: only.minimum, max: only.maximum };
    }
    return { kind: "other" };
  }

  /* ---- building the form -------------------------------------------------------------- */

  /** The ruleset's ground force, for examples in fleet notation (TI4 "infantry", TI3
   *  "ground_force": the first unit whose card is a ground force); ``sturdy``: one that can
   *  sustain damage (TI4 "mech", TI3 "mechanized_unit"), for damaged units. */
  function groundUnit(sturdy) {
    const cat = page.catalogue[page.ruleset] || {};
    const cards = cat.cards || {};
    const ground = (cat.units || []).filter((unit) => (cards[unit] || {}).is_ground_force);
    const found = sturdy ? ground.find((unit) => cards[unit].sustain_damage) : ground[0];
    return found || ground[0] || "infantry";
  }

  function planetsHelp(kind) {
    return (PLANETS_HELP[kind] || "").replace(/GROUND/g, groundUnit());
  }

  /** Units the engine refuses whatever the battle (every card of the unit not implemented:
   *  TI3's flagship, whose values are not verified) are not offered: taken out of the
   *  catalogue's ``units`` as it arrives, so no control offers them (docs/rulings.md 25P-4).
   *  A catalogue that makes one legal (an implemented card) offers it again. */
  function withdrawRefusedUnits(cat) {
    if (!cat || !Array.isArray(cat.units)) return;
    const cards = Object.values(cat.cards || {});
    const refused = cat.units.filter((unit) => {
      const its = cards.filter((card) => (card.type || card.id) === unit);
      return its.length > 0 && its.every((card) => card.implemented === false);
    });
    cat.refused_units = refused;
    cat.units = cat.units.filter((unit) => !refused.includes(unit));
  }

  function buildRulesetChoices() {
    const choice = $("ruleset");
    choice.replaceChildren();
    for (const id of Object.keys(page.catalogue)) {
      choice.append(el("option", { value: id, text: id.toUpperCase() }));
    }
  }

  function buildForm(ruleset) {
    page.ruleset = ruleset;
    const cat = page.catalogue[ruleset];
    $("ruleset").value = ruleset;
    const battle = $("battle");
    const before = battle.value;
    battle.replaceChildren(...(cat.battles || ["space"]).map((b) => el("option", { value: b, text: b })));
    if ((cat.battles || []).includes(before)) battle.value = before;
    const tabular = ruleset !== "ec4x";
    $("ti-editor").hidden = !tabular;
    $("ec4x-editor").hidden = tabular;
    if (tabular) {
      for (const side of SIDES) buildSide(side, cat);
      buildSystem(cat);
      buildPlanets();
      buildRules(cat);
      showBattleKind();
    } else {
      // EC4X: houses, diplomacy, fleets, a colony and rule options (ec4x_form.js)
      window.spacecombatEc4x.build($("ec4x-editor"), cat, { colours: HOUSE_COLOURS, fieldError });
    }
    announce("built");
  }

  /** Tell the page's other scripts (units.js: unit rows, quick controls, pickers) that the
   *  form was built ("built") or filled from a scenario ("applied"). */
  function announce(what) {
    document.dispatchEvent(new CustomEvent("spacecombat:form", { detail: { what } }));
  }

  function buildSide(side, cat) {
    const panel = $(`side-${side}`);
    panel.replaceChildren(el("legend", { text: pretty(side) }));
    const upgrades = new Set(cat.upgrades || []);

    // faction
    const factions = entries(cat.factions).sort((a, b) => a.name.localeCompare(b.name));
    const faction = select(`${side}-faction`, [{ value: "", label: "none (generic units)" }].concat(
      factions.map((f) => ({
        value: f.id,
        label: f.implemented ? f.name : `${f.name} (abilities not implemented yet)`,
        disabled: !f.implemented,
      }))), { "data-field": `${side}.faction` });
    panel.append(field("Faction", faction));

    // units: count, damaged, upgraded
    const anySustain = (cat.units || []).some(canSustain);
    const table = el("table", { className: "units" });
    const headings = el("tr", {},
      el("th", { scope: "col", text: "Unit" }),
      el("th", { scope: "col", text: "Count" }),
      anySustain ? el("th", { scope: "col", text: "Damaged" }) : null,
      upgrades.size ? el("th", { scope: "col" }, el("abbr", { title: "upgraded (level II)",
        "aria-hidden": "true", text: "II" }), el("span", { className: "sr-only", text: "Upgraded" }))
        : null);
    table.append(el("thead", {}, headings));
    const body = el("tbody", { "data-field": `${side}.units` });
    for (const unit of cat.units || []) {
      const name = unitName(unit);
      const count = el("input", {
        type: "number", id: `${side}-units-${unit}`, min: 0, step: 1, inputmode: "numeric",
        value: "", placeholder: "0", className: "count", "data-field": `${side}.units.${unit}`,
        "data-unit": unit,
      });
      const damaged = anySustain && canSustain(unit)
        ? el("input", {
          type: "number", id: `${side}-damaged-${unit}`, min: 0, step: 1, inputmode: "numeric",
          value: "", placeholder: "0", className: "count", "data-field": `${side}.damaged.${unit}`,
          "data-unit": unit, "aria-label": `${pretty(side)}: damaged ${name} (sustain damage used)`,
        })
        : null;
      const upgraded = upgrades.has(unit)
        ? el("input", {
          type: "checkbox", id: `${side}-upgrade-${unit}`, "data-field": `${side}.upgrades`,
          "data-unit": unit, "aria-label": `${pretty(side)}: ${name} II (upgraded)`,
        })
        : null;
      body.append(el("tr", {},
        el("th", { scope: "row" },
          el("label", { for: count.id },
            el("span", { className: "sr-only", text: `${pretty(side)}: ` }), name),
          el("span", { className: "card", text: cardSummary(unit) })),
        el("td", {}, count),
        anySustain ? el("td", {}, damaged || "") : null,
        upgrades.size ? el("td", {}, upgraded || "") : null));
    }
    table.append(body);
    panel.append(el("div", { className: "table-wrap" }, table));

    // ground forces on the side's planets (space battles)
    const planetUnits = el("input", {
      type: "text", id: `${side}-planet-units`, "data-field": `${side}.planet_units`,
      placeholder: `e.g. 2 ${groundUnit()}`, autocomplete: "off",
    });
    panel.append(field("On its planets in the system (space battle)", planetUnits, "planet-units wide"));

    // technologies
    const techs = entries(cat.technologies).sort((a, b) => a.name.localeCompare(b.name));
    if (techs.length) {
      const box = el("fieldset", { className: "checks", "data-field": `${side}.technologies` },
        el("legend", { text: "Technologies" }));
      for (const tech of techs) {
        const id = `${side}-tech-${tech.id}`;
        const item = checkbox(id, tech.implemented ? tech.name : `${tech.name} (not implemented yet)`,
          { "data-tech": tech.id, disabled: !tech.implemented, title: tech.text || null });
        box.append(item);
      }
      panel.append(el("details", { className: "more" },
        el("summary", {}, "Technologies ", el("span", { className: "count-badge",
          id: `${side}-tech-count` })), box));
    }

    // cards and leaders held (TI4), and the player's conditions
    const held = entries(cat.held_cards || {}).sort((a, b) => a.name.localeCompare(b.name));
    if (held.length) {
      const boxes = [];
      for (const [kind, list, legend] of CARD_LISTS) {
        const cards = held.filter((c) => c.kind === kind);
        if (!cards.length) continue;
        const box = el("fieldset", { className: "checks", "data-field": `${side}.${list}` },
          el("legend", { text: legend }));
        for (const card of cards) {
          box.append(checkbox(`${side}-card-${card.id}`,
            card.implemented ? card.name : `${card.name} (not implemented yet)`,
            { "data-card": card.id, "data-list": list, disabled: !card.implemented,
              title: card.text || null }));
        }
        boxes.push(box);
      }
      const conditions = entries(cat.conditions || {}).filter((c) => c.scope === "player");
      if (conditions.length) {
        const box = el("fieldset", { className: "checks", "data-field": `${side}.conditions` },
          el("legend", { text: "Conditions" }));
        for (const condition of conditions) {
          box.append(checkbox(`${side}-condition-${condition.id}`, pretty(condition.id),
            { "data-condition": condition.id, title: condition.text || null }));
        }
        boxes.push(box);
      }
      panel.append(el("details", { className: "more" },
        el("summary", {}, "Cards, leaders and conditions"), ...boxes));
    }

    // policy
    panel.append(buildPolicy(side, cat));

    // other whole-number fields of a side (reinforcement tokens, fleet supply, ...)
    const sideFields = ((cat.side || {}).fields) || {};
    const handled = new Set(["faction", "units", "upgrades", "damaged", "technologies",
      "planet_units", "policy", "conditions", ...CARD_LISTS.map(([, list]) => list)]);
    const more = [];
    for (const [name, prop] of Object.entries(sideFields)) {
      if (handled.has(name)) continue;
      const counts = countsObject(prop, ((cat.side || {}).definitions) || {});
      if (counts) {
        // a group of whole numbers (technology_colours: technologies owned of each colour)
        const box = el("fieldset", { className: "counts", "data-field": `${side}.${name}` },
          el("legend", { text: pretty(name) }));
        for (const [key, sub] of Object.entries(counts)) {
          const input = el("input", { type: "number", id: `${side}-${name}-${key}`,
            min: sub.minimum, max: sub.maximum, step: 1, inputmode: "numeric",
            placeholder: "0", "data-field": `${side}.${name}.${key}`,
            "data-side-group": name, "data-key": key });
          box.append(field(pretty(key), input));
        }
        more.push(box);
        continue;
      }
      const kind = schemaKind(prop);
      if (kind.kind !== "integer") continue;
      const input = el("input", { type: "number", id: `${side}-${name}`, min: kind.min,
        max: kind.max, step: 1, inputmode: "numeric", placeholder: "default",
        "data-field": `${side}.${name}`, "data-side-field": name });
      more.push(field(pretty(name), input));
    }
    if (more.length) {
      panel.append(el("details", { className: "more" }, el("summary", { text: "More" }), ...more));
    }
  }

  function buildPolicy(side, cat) {
    const fields = ((cat.policy || {}).fields) || {};
    const box = el("fieldset", { className: "policy", "data-field": `${side}.policy` },
      el("legend", { text: "Policy" }));
    for (const [name, prop] of Object.entries(fields)) {
      const kind = schemaKind(prop);
      const id = `${side}-policy-${name}`;
      const path = `${side}.policy.${name}`;
      if (name === "casualty_order") {
        box.append(buildCasualtyOrder(side, cat));
      } else if (kind.kind === "enum") {
        box.append(field(pretty(name), select(id, [{ value: "", label: "default" }].concat(
          kind.values.map((v) => ({ value: v, label: String(v) }))), { "data-field": path,
          "data-policy": name })));
      } else if (kind.kind === "boolean") {
        box.append(field(pretty(name), select(id, [{ value: "", label: "default" },
          { value: "true", label: "yes" }, { value: "false", label: "no" }],
        { "data-field": path, "data-policy": name, "data-type": "boolean" })));
      } else if (kind.kind === "list") {
        box.append(field(`${pretty(name)} (comma-separated)`, el("input", { type: "text", id,
          "data-field": path, "data-policy": name, "data-type": "list", autocomplete: "off" })));
      } else if (kind.kind === "counts") {
        box.append(field(`${pretty(name)} (units held back, e.g. 1 ${groundUnit()})`, el("input", {
          type: "text", id, "data-field": path, "data-policy": name, "data-type": "fleet",
          placeholder: `e.g. 1 ${groundUnit()}`, autocomplete: "off", title: prop.description || null })));
      } else if (kind.kind === "retreat") {
        box.append(buildRetreat(side, prop, cat));
      }
    }
    return el("details", { className: "more" }, el("summary", { text: "Policy" }), box);
  }

  /** The retreat policy: its forms from the schema (a constant, or a one-key object). */
  function buildRetreat(side, prop, cat) {
    const defs = ((cat.policy || {}).definitions) || {};
    const forms = [{ value: "", label: "default" }];
    for (const option of prop.anyOf || []) {
      if (option.const) forms.push({ value: option.const, label: String(option.const) });
      if (option.enum) option.enum.forEach((v) => forms.push({ value: v, label: String(v) }));
      if (option.$ref) {
        const def = defs[option.$ref.split("/").pop()] || {};
        const key = Object.keys(def.properties || {})[0];
        if (key) forms.push({ value: key, label: key.replace(/_/g, " ") + "…",
          number: def.properties[key] });
      }
    }
    const form = select(`${side}-retreat`, forms, { "data-field": `${side}.policy.retreat` });
    const amount = el("input", { type: "number", id: `${side}-retreat-value`, step: "any",
      inputmode: "decimal", "data-field": `${side}.policy.retreat.value` });
    const amountField = field("Round or ratio", amount, "retreat-value");
    const update = () => {
      const chosen = forms.find((f) => f.value === form.value);
      amountField.hidden = !(chosen && chosen.number);
      if (chosen && chosen.number) {
        amountField.querySelector("label").textContent = pretty(chosen.value);
        amount.step = chosen.number.type === "integer" ? "1" : "any";
        amount.dataset.field = `${side}.policy.retreat.${chosen.value}`;
      }
    };
    form.addEventListener("change", update);
    const wrap = el("div", { className: "retreat" }, field("Retreat", form), amountField);
    wrap.update = update;
    form.dataset.forms = JSON.stringify(forms.map((f) => ({ value: f.value, number: !!f.number })));
    update();
    return wrap;
  }

  /** Casualty order: off (the engine's default), or every unit in an order set with buttons. */
  function buildCasualtyOrder(side, cat) {
    const cards = cat.units || [];
    const cheapestFirst = cards.slice().sort((a, b) =>
      (genericCard(a).cost ?? 99) - (genericCard(b).cost ?? 99));
    const list = el("ol", { className: "order", id: `${side}-casualty-list`,
      "aria-label": `${pretty(side)}: casualty order, first lost first` });
    const toggle = checkbox(`${side}-casualty-custom`, "Set the casualty order (else: default)",
      { "data-field": `${side}.policy.casualty_order` });
    const box = toggle.querySelector("input");
    const fill = (order) => {
      list.replaceChildren(...order.map((unit) => orderItem(side, unit, list)));
    };
    fill(cheapestFirst);
    list.hidden = true;
    box.addEventListener("change", () => { list.hidden = !box.checked; });
    const wrap = el("div", { className: "casualty", "data-field": `${side}.policy.casualty_order` },
      toggle, list);
    wrap.fill = fill;
    return wrap;
  }

  function orderItem(side, unit, list) {
    const name = unitName(unit);
    const move = (delta) => () => {
      const item = list.querySelector(`[data-unit="${unit}"]`);
      const sibling = delta < 0 ? item.previousElementSibling : item.nextElementSibling;
      if (!sibling) return;
      if (delta < 0) list.insertBefore(item, sibling); else list.insertBefore(sibling, item);
      item.querySelector(delta < 0 ? ".up" : ".down").focus();
    };
    return el("li", { "data-unit": unit },
      el("span", { text: name }),
      el("button", { type: "button", className: "up", "aria-label": `${name}: lose earlier`,
        onclick: move(-1), text: "↑" }),
      el("button", { type: "button", className: "down", "aria-label": `${name}: lose later`,
        onclick: move(1), text: "↓" }));
  }

  function buildSystem(cat) {
    const panel = $("system-panel");
    panel.replaceChildren(el("legend", { text: "System" }));
    const anomalies = cat.anomalies || [];
    const row = el("div", { className: "row" });
    row.append(field("Name", el("input", { type: "text", id: "system-name", placeholder: "active system",
      "data-field": "system.name", autocomplete: "off" })));
    if (anomalies.length) {
      row.append(field("Anomaly", select("system-anomaly",
        anomalies.map((a) => ({ value: a, label: a.replace(/_/g, " ") })),
        { "data-field": "system.anomaly" })));
    }
    panel.append(row);
    const list = el("div", { id: "adjacent-list", "data-field": "system.adjacent" });
    panel.append(el("h3", { text: "Adjacent systems (where a retreat may go)" }), list,
      el("button", { type: "button", id: "add-adjacent", text: "Add an adjacent system",
        onclick: () => addAdjacent({ name: `System ${list.children.length + 1}` }) }));
  }

  function addAdjacent(spec) {
    const list = $("adjacent-list");
    const i = list.children.length;
    const cat = page.catalogue[page.ruleset];
    const row = el("fieldset", { className: "adjacent row", "data-field": `system.adjacent[${i}]` },
      el("legend", { text: `Adjacent system ${i + 1}` }));
    row.append(field("Name", el("input", { type: "text", id: `adjacent-${i}-name`, value: spec.name || "",
      "data-field": `system.adjacent[${i}].name`, "data-key": "name", autocomplete: "off" })));
    if ((cat.anomalies || []).length) {
      const anomaly = select(`adjacent-${i}-anomaly`, cat.anomalies.map((a) => ({ value: a,
        label: a.replace(/_/g, " ") })), { "data-field": `system.adjacent[${i}].anomaly`,
        "data-key": "anomaly" });
      anomaly.value = spec.anomaly || "none";
      row.append(field("Anomaly", anomaly));
    }
    for (const [key, what] of [["units", "units"], ["command_tokens", "a command token"]]) {
      const group = el("div", { className: "checks inline", "data-field": `system.adjacent[${i}].${key}` });
      for (const side of SIDES) {
        const item = checkbox(`adjacent-${i}-${key}-${side}`, `${pretty(side)} has ${what} there`,
          { "data-key": key, "data-side": side });
        item.querySelector("input").checked = (spec[key] || []).includes(side);
        group.append(item);
      }
      row.append(group);
    }
    row.append(el("button", { type: "button", className: "remove", text: "Remove",
      "aria-label": `Remove adjacent system ${i + 1}`, onclick: () => {
        row.remove();
        renumber("adjacent-list");
      } }));
    list.append(row);
  }

  function buildPlanets() {
    const panel = $("planets-panel");
    panel.replaceChildren(el("legend", { text: "Planets" }),
      el("p", { className: "help", id: "planets-help", text: planetsHelp($("battle").value) }),
      el("div", { id: "planet-list", "data-field": "planets" }),
      el("button", { type: "button", id: "add-planet", text: "Add a planet",
        onclick: () => addPlanet({ name: `Planet ${$("planet-list").children.length + 1}` }) }));
  }

  function addPlanet(spec) {
    const list = $("planet-list");
    const i = list.children.length;
    const row = el("fieldset", { className: "planet row", "data-field": `planets[${i}]` },
      el("legend", { text: `Planet ${i + 1}` }));
    const text = (value) => (typeof value === "string" ? value : value ? fleetText(value) : "");
    row.append(
      field("Name", el("input", { type: "text", id: `planet-${i}-name`, value: spec.name || "",
        "data-field": `planets[${i}].name`, "data-key": "name", autocomplete: "off" })),
      field("Defender's units", el("input", { type: "text", id: `planet-${i}-defender`,
        value: text(spec.defender), "data-field": `planets[${i}].defender`, "data-key": "defender",
        placeholder: `e.g. 2 ${groundUnit()}, 1 pds`, autocomplete: "off" })),
      field("Attacker commits", el("input", { type: "text", id: `planet-${i}-commit`,
        value: text(spec.commit), "data-field": `planets[${i}].commit`, "data-key": "commit",
        placeholder: `e.g. 3 ${groundUnit()}`, autocomplete: "off" })),
      field("Defender's damaged units", el("input", { type: "text", id: `planet-${i}-damaged`,
        value: text(spec.damaged), "data-field": `planets[${i}].damaged`, "data-key": "damaged",
        placeholder: `e.g. 1 ${groundUnit(true)}`, autocomplete: "off" })),
      field("Bombarded by", el("input", { type: "text", id: `planet-${i}-bombarded_by`,
        value: text(spec.bombarded_by), "data-field": `planets[${i}].bombarded_by`,
        "data-key": "bombarded_by", placeholder: "e.g. 1 dreadnought", autocomplete: "off" })),
      el("button", { type: "button", className: "remove", text: "Remove",
        "aria-label": `Remove planet ${i + 1}`, onclick: () => {
          row.remove();
          renumber("planet-list");
        } }));
    list.append(row);
  }

  /** After a row is removed: field paths follow the rows' new indices. */
  function renumber(listId) {
    [...$(listId).children].forEach((row, i) => {
      for (const node of [row, ...row.querySelectorAll("[data-field]")]) {
        node.dataset.field = node.dataset.field.replace(/\[\d+\]/, `[${i}]`);
      }
      const legend = row.querySelector("legend");
      legend.textContent = legend.textContent.replace(/\d+$/, String(i + 1));
    });
  }

  function buildRules(cat) {
    const panel = $("rules-panel");
    panel.replaceChildren(el("legend", { text: "Laws and rule options" }));
    const laws = entries(cat.laws).sort((a, b) => a.name.localeCompare(b.name));
    if (laws.length) {
      const box = el("fieldset", { className: "checks", "data-field": "laws" },
        el("legend", { text: "Laws in play" }));
      for (const law of laws) {
        const item = checkbox(`law-${law.id}`, law.implemented ? law.name : `${law.name} (not implemented yet)`,
          { "data-law": law.id, disabled: !law.implemented, title: law.text || null });
        // a law that elects a player or a planet says which (the scenario's ``elected``)
        if (law.elect === "player") {
          item.append(select(`law-${law.id}-elected`, SIDES.map((side) => ({ value: side,
            label: `elected: ${side}` })), { "data-elected": law.id,
            "aria-label": `${law.name}: the elected player` }));
        } else if (law.elect === "planet") {
          item.append(el("input", { type: "text", id: `law-${law.id}-elected`,
            "data-elected": law.id, placeholder: "elected planet", autocomplete: "off",
            "aria-label": `${law.name}: the elected planet` }));
        }
        box.append(item);
      }
      panel.append(el("details", { className: "more" }, el("summary", {}, "Laws ",
        el("span", { className: "count-badge", id: "law-count" })), box));
    }
    const options = ((cat.options || {}).fields) || {};
    const box = el("fieldset", { className: "options", "data-field": "options" },
      el("legend", { text: "Rule options (docs/rulings.md)" }));
    for (const [name, prop] of Object.entries(options)) {
      const kind = schemaKind(prop);
      const id = `option-${name}`;
      const attrs = { "data-field": `options.${name}`, "data-option": name,
        "data-default": JSON.stringify(prop.default) };
      if (kind.kind === "boolean") {
        const item = checkbox(id, pretty(name), attrs);
        item.querySelector("input").checked = prop.default === true;
        box.append(item);
      } else if (kind.kind === "integer" || kind.kind === "number") {
        box.append(field(pretty(name), el("input", Object.assign({ type: "number", id,
          min: kind.min, max: kind.max, step: kind.kind === "integer" ? 1 : "any",
          value: prop.default ?? "" }, attrs))));
      } else if (kind.kind === "enum") {
        const choice = select(id, kind.values.map((v) => ({ value: v, label: String(v) })), attrs);
        choice.value = prop.default;
        box.append(field(pretty(name), choice));
      }
    }
    if (box.children.length > 1) {
      panel.append(el("details", { className: "more" }, el("summary", { text: "Rule options" }), box));
    }
    panel.hidden = panel.children.length <= 1;
  }

  /** The battle kind's panels: planets for an invasion and a tactical action (space combat,
   *  then the planets), the sides' ground forces on planets for a space battle only. */
  function showBattleKind() {
    const kind = $("battle").value;
    $("planets-panel").hidden = !withPlanets(kind);
    for (const node of document.querySelectorAll(".planet-units")) node.hidden = kind !== "space";
    const help = $("planets-help");
    if (help) help.textContent = planetsHelp(kind);
  }

  function withPlanets(kind) {
    return kind === "invasion" || kind === "tactical";
  }

  /* ---- form <-> scenario -------------------------------------------------------------- */

  /** A count as typed: 0 when empty, a number when it reads as one, else the text itself
   *  (the API says what is wrong with it, next to the field). */
  function countValue(input) {
    const text = input.value.trim();
    if (text === "") {
      // a number input whose text is not a number reads as "": say so rather than send 0
      return input.validity && input.validity.badInput ? "?" : 0;
    }
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }

  function fleetValue(text) {
    const trimmed = text.trim();
    return trimmed === "" ? null : trimmed;
  }

  /** A request's body (JSON text): the scenario and ``fields``. EC4X's JSON is sent as typed,
   *  and a seed typed as digits is sent as those digits: a seed of 64 bits would be rounded by
   *  a trip through a JavaScript number. */
  function requestBody(fields) {
    let scenario;
    if (page.ruleset === "ec4x") {
      scenario = window.spacecombatEc4x.text(); // a 64-bit seed sent as its digits
    } else {
      scenario = JSON.stringify(collectScenario());
    }
    const rest = Object.entries(fields).map(([k, v]) =>
      `, ${JSON.stringify(k)}: ${v instanceof Digits ? v.text : JSON.stringify(v)}`);
    return `{"scenario": ${scenario}${rest.join("")}}`;
  }

  /** A whole number typed as digits, sent as typed (``requestBody``). */
  class Digits {
    constructor(text) {
      this.text = text;
    }
  }

  function collectScenario() {
    if (page.ruleset === "ec4x") return window.spacecombatEc4x.collect();
    const scenario = Object.assign({}, page.extra.top, {
      ruleset: page.ruleset,
      battle: $("battle").value,
      attacker: collectSide("attacker"),
      defender: collectSide("defender"),
    });
    const system = Object.assign({}, page.extra.system);
    const name = $("system-name").value.trim();
    if (name) system.name = name; else delete system.name;
    const anomaly = $("system-anomaly");
    if (anomaly && anomaly.value && anomaly.value !== "none") system.anomaly = anomaly.value;
    else delete system.anomaly;
    const adjacent = [...$("adjacent-list").children].map(collectAdjacent);
    if (adjacent.length) system.adjacent = adjacent;
    if (Object.keys(system).length) scenario.system = system; else delete scenario.system;
    const laws = [...document.querySelectorAll("[data-law]:checked")].map((b) => b.dataset.law);
    if (laws.length) scenario.laws = laws; else delete scenario.laws;
    const elected = {};
    for (const input of document.querySelectorAll("[data-elected]")) {
      if (laws.includes(input.dataset.elected) && input.value.trim() !== "") {
        elected[input.dataset.elected] = input.value.trim();
      }
    }
    if (Object.keys(elected).length) scenario.elected = elected; else delete scenario.elected;
    const options = collectOptions();
    if (Object.keys(options).length) scenario.options = options; else delete scenario.options;
    const planets = withPlanets(scenario.battle)
      ? [...$("planet-list").children].map(collectPlanet) : [];
    if (planets.length) scenario.planets = planets; else delete scenario.planets;
    delete scenario.policy; // a loaded shared policy is spread over the sides' policies
    return scenario;
  }

  function collectSide(side) {
    const out = Object.assign({}, (page.extra.sides || {})[side] || {});
    const faction = $(`${side}-faction`).value;
    if (faction) out.faction = faction; else delete out.faction;
    for (const key of ["units", "damaged"]) {
      const counts = {};
      for (const input of document.querySelectorAll(`[data-field^="${side}.${key}."]`)) {
        const value = countValue(input);
        if (value !== 0) counts[input.dataset.unit] = value;
      }
      if (key === "units" || Object.keys(counts).length) out[key] = counts; else delete out[key];
    }
    const upgrades = [...document.querySelectorAll(`[data-field="${side}.upgrades"]:checked`)]
      .map((b) => b.dataset.unit);
    if (upgrades.length) out.upgrades = upgrades; else delete out.upgrades;
    const techs = [...document.querySelectorAll(`#side-${side} [data-tech]:checked`)]
      .map((b) => b.dataset.tech);
    if (techs.length) out.technologies = techs; else delete out.technologies;
    for (const [, list] of CARD_LISTS) {
      const cards = [...document.querySelectorAll(`#side-${side} [data-list="${list}"]:checked`)]
        .map((b) => b.dataset.card);
      if (cards.length) out[list] = cards; else delete out[list];
    }
    const conditions = [...document.querySelectorAll(`#side-${side} [data-condition]:checked`)]
      .map((b) => b.dataset.condition);
    if (conditions.length) out.conditions = conditions; else delete out.conditions;
    const planetUnits = $(`${side}-planet-units`);
    const onPlanets = $("battle").value === "space" ? fleetValue(planetUnits.value) : null;
    if (onPlanets) out.planet_units = onPlanets; else delete out.planet_units;
    for (const input of document.querySelectorAll(`#side-${side} [data-side-field]`)) {
      if (input.value.trim() === "") delete out[input.dataset.sideField];
      else out[input.dataset.sideField] = countValue(input);
    }
    const groups = {};
    for (const input of document.querySelectorAll(`#side-${side} [data-side-group]`)) {
      const group = groups[input.dataset.sideGroup] = groups[input.dataset.sideGroup] || {};
      if (input.value.trim() !== "") group[input.dataset.key] = countValue(input);
    }
    for (const [name, group] of Object.entries(groups)) {
      if (Object.keys(group).length) out[name] = group; else delete out[name];
    }
    const policy = collectPolicy(side);
    if (Object.keys(policy).length) out.policy = policy; else delete out.policy;
    return out;
  }

  function collectPolicy(side) {
    // keys the form has no control for (``play``: when to play each card) are kept as loaded
    const policy = Object.assign({}, ((page.extra || {}).policies || {})[side] || {});
    const panel = $(`side-${side}`);
    if ($(`${side}-casualty-custom`) && $(`${side}-casualty-custom`).checked) {
      policy.casualty_order = [...$(`${side}-casualty-list`).children].map((li) => li.dataset.unit);
    }
    for (const input of panel.querySelectorAll("[data-policy]")) {
      const value = input.value.trim();
      if (value === "") continue;
      // fleet notation ("1 infantry") is sent as typed: the API reads it, or says what is wrong
      if (input.dataset.type === "boolean") policy[input.dataset.policy] = value === "true";
      else if (input.dataset.type === "list") {
        policy[input.dataset.policy] = value.split(",").map((s) => s.trim()).filter(Boolean);
      } else policy[input.dataset.policy] = value;
    }
    const retreat = $(`${side}-retreat`);
    if (retreat && retreat.value) {
      const forms = JSON.parse(retreat.dataset.forms);
      const form = forms.find((f) => f.value === retreat.value);
      if (form && form.number) {
        const amount = countValue($(`${side}-retreat-value`));
        policy.retreat = { [retreat.value]: amount };
      } else {
        policy.retreat = retreat.value;
      }
    }
    return policy;
  }

  function collectAdjacent(row) {
    const out = {};
    const name = row.querySelector('[data-key="name"]').value.trim();
    out.name = name;
    const anomaly = row.querySelector('[data-key="anomaly"]');
    if (anomaly && anomaly.value !== "none") out.anomaly = anomaly.value;
    for (const key of ["units", "command_tokens"]) {
      const who = [...row.querySelectorAll(`[data-key="${key}"]:checked`)].map((b) => b.dataset.side);
      if (who.length) out[key] = who;
    }
    return out;
  }

  function collectPlanet(row) {
    const out = { name: row.querySelector('[data-key="name"]').value.trim() };
    const defender = fleetValue(row.querySelector('[data-key="defender"]').value);
    out.defender = defender || {};
    const commit = fleetValue(row.querySelector('[data-key="commit"]').value);
    if (commit) out.commit = commit;
    for (const key of ["damaged", "bombarded_by"]) {
      const value = fleetValue(row.querySelector(`[data-key="${key}"]`).value);
      if (value) out[key] = value;
    }
    return out;
  }

  function collectOptions() {
    const options = {};
    for (const input of document.querySelectorAll("[data-option]")) {
      const fallback = JSON.parse(input.dataset.default);
      let value;
      if (input.type === "checkbox") value = input.checked;
      else if (input.type === "number") value = countValue(input);
      else value = input.value;
      if (value !== fallback) options[input.dataset.option] = value;
    }
    return options;
  }

  /** Fill the form from a scenario (a shared one, say); keys the form has no control for are
   *  kept and sent back as they were. */
  function applyScenario(scenario) {
    const ruleset = page.catalogue[scenario.ruleset] ? scenario.ruleset : Object.keys(page.catalogue)[0];
    if (ruleset === "ec4x") {
      buildForm(ruleset);
      window.spacecombatEc4x.apply(scenario);
      page.extra = { top: {}, sides: {}, system: {} };
      return;
    }
    $("battle").value = scenario.battle || "space";
    buildForm(ruleset);
    $("battle").value = scenario.battle || "space";
    showBattleKind();
    const known = new Set(["ruleset", "battle", "attacker", "defender", "policy", "system", "laws",
      "elected", "options", "planets"]);
    page.extra = { top: {}, sides: {}, system: {} };
    for (const [key, value] of Object.entries(scenario)) {
      if (!known.has(key)) page.extra.top[key] = value;
    }
    for (const side of SIDES) applySide(side, scenario[side] || {}, scenario.policy || {});
    const system = scenario.system || {};
    const systemExtra = Object.assign({}, system);
    for (const key of ["name", "anomaly", "adjacent"]) delete systemExtra[key];
    page.extra.system = systemExtra;
    $("system-name").value = system.name && system.name !== "active system" ? system.name : "";
    if ($("system-anomaly")) $("system-anomaly").value = system.anomaly || "none";
    for (const adjacent of system.adjacent || []) addAdjacent(adjacent);
    for (const law of scenario.laws || []) {
      const box = document.querySelector(`[data-law="${law}"]`);
      if (box) box.checked = true;
    }
    for (const [law, value] of Object.entries(scenario.elected || {})) {
      const input = document.querySelector(`[data-elected="${law}"]`);
      if (input) input.value = value;
    }
    for (const [name, value] of Object.entries(scenario.options || {})) {
      const input = document.querySelector(`[data-option="${name}"]`);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = value === true;
      else input.value = value;
    }
    for (const planet of scenario.planets || []) addPlanet(planet);
    updateLawCount();
    announce("applied");
  }

  function applySide(side, spec, shared) {
    const handled = new Set(["faction", "units", "damaged", "upgrades", "technologies",
      "planet_units", "policy", "conditions", ...CARD_LISTS.map(([, list]) => list)]);
    const extra = {};
    for (const [key, value] of Object.entries(spec)) {
      const input = document.querySelector(`#side-${side} [data-side-field="${key}"]`);
      const group = document.querySelectorAll(`#side-${side} [data-side-group="${key}"]`);
      if (input) input.value = value;
      else if (group.length && value && typeof value === "object") {
        for (const one of group) {
          one.value = one.dataset.key in value ? value[one.dataset.key] : "";
        }
      } else if (!handled.has(key)) extra[key] = value;
    }
    page.extra.sides[side] = extra;
    $(`${side}-faction`).value = spec.faction || "";
    for (const key of ["units", "damaged"]) {
      let counts = spec[key] || {};
      if (typeof counts === "string") counts = parseFleet(counts);
      for (const [unit, n] of Object.entries(counts)) {
        const input = $(`${side}-${key}-${unit}`);
        if (input) input.value = n;
      }
    }
    for (const unit of spec.upgrades || []) {
      const box = $(`${side}-upgrade-${unit}`);
      if (box) box.checked = true;
    }
    for (const tech of spec.technologies || []) {
      const box = $(`${side}-tech-${tech}`);
      if (box) box.checked = true;
    }
    for (const [, list] of CARD_LISTS) {
      for (const card of spec[list] || []) {
        const box = $(`${side}-card-${card}`);
        if (box) box.checked = true;
      }
    }
    for (const condition of spec.conditions || []) {
      const box = $(`${side}-condition-${condition}`);
      if (box) box.checked = true;
    }
    const onPlanets = spec.planet_units;
    $(`${side}-planet-units`).value = typeof onPlanets === "string" ? onPlanets
      : onPlanets && Object.keys(onPlanets).length ? fleetText(onPlanets) : "";
    const policy = Object.assign({}, shared, spec.policy || {});
    const controlled = new Set(["casualty_order", "retreat",
      ...[...$(`side-${side}`).querySelectorAll("[data-policy]")].map((i) => i.dataset.policy)]);
    page.extra.policies = page.extra.policies || {};
    page.extra.policies[side] = Object.fromEntries(
      Object.entries(policy).filter(([key]) => !controlled.has(key)));
    if (policy.casualty_order) {
      $(`${side}-casualty-custom`).checked = true;
      const list = $(`${side}-casualty-list`);
      list.hidden = false;
      // units the order leaves out go last, by name, as the engine places them
      const rest = [...list.children].map((li) => li.dataset.unit)
        .filter((u) => !policy.casualty_order.includes(u)).sort();
      list.closest(".casualty").fill(policy.casualty_order.concat(rest));
    }
    for (const input of $(`side-${side}`).querySelectorAll("[data-policy]")) {
      const value = policy[input.dataset.policy];
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) input.value = value.join(", ");
      else if (input.dataset.type === "fleet" && typeof value === "object") input.value = fleetText(value);
      else input.value = String(value);
    }
    const retreat = $(`${side}-retreat`);
    if (retreat && policy.retreat !== undefined && policy.retreat !== null) {
      if (typeof policy.retreat === "object") {
        const [key, value] = Object.entries(policy.retreat)[0];
        retreat.value = key;
        $(`${side}-retreat-value`).value = value;
      } else {
        retreat.value = policy.retreat;
      }
      retreat.closest(".retreat").update();
    }
    updateTechCount(side);
  }

  /** "2 dreadnought, 3 fighter" as {dreadnought: 2, fighter: 3} (for filling the form only;
   *  the API reads the notation itself). */
  function parseFleet(text) {
    const counts = {};
    for (const part of text.split(",")) {
      const match = part.trim().match(/^(\d+)\s+(\S+)$/);
      if (match) counts[match[2]] = Number(match[1]);
    }
    return counts;
  }

  function updateLawCount() {
    const badge = $("law-count");
    if (!badge) return;
    const n = document.querySelectorAll("[data-law]:checked").length;
    badge.textContent = n ? `(${n} in play)` : "";
  }

  function updateTechCount(side) {
    const badge = $(`${side}-tech-count`);
    if (!badge) return;
    const n = document.querySelectorAll(`#side-${side} [data-tech]:checked`).length;
    badge.textContent = n ? `(${n} chosen)` : "";
  }

  /* ---- talking to the API ------------------------------------------------------------ */

  class ApiError extends Error {
    constructor(status, field, message, retryAfter, cancelled) {
      super(message);
      this.cancelled = cancelled === true;
      this.status = status;
      this.field = field;
      this.retryAfter = retryAfter;
    }
  }

  function isAbort(error) {
    return Boolean(error) && error.name === "AbortError";
  }

  function fieldError(fieldPath, message) {
    return new ApiError(422, fieldPath, message);
  }

  /** JSON, except that a seed is kept as text: seeds are 64-bit, and a JavaScript number
   *  holds 53 bits (a seed shown rounded would not replay the battle). */
  function parseJson(text) {
    return JSON.parse(text.replace(/("seed"\s*:\s*)(-?\d+)(?![\d.eE])/g,
      (all, key, digits) => (Number.isSafeInteger(Number(digits)) ? all : `${key}"${digits}"`)));
  }

  /** A request to the API; ``signal`` (an AbortController's) abandons it: the fetch then
   *  throws its AbortError, and the server stops the work (its client left). Without one, the
   *  Cancel button's (busy) stops it: a cancelled ApiError. */
  async function api(method, path, body, signal) {
    const init = { method, headers: { Accept: "application/json" } };
    init.signal = signal || (page.abort ? page.abort.signal : undefined);
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(API + path, init);
    } catch (error) {
      if (isAbort(error) && signal) throw error;
      if (isAbort(error)) throw new ApiError(0, null, "Cancelled.", null, true);
      throw new ApiError(0, null, "The server cannot be reached.");
    }
    let payload = null;
    try {
      payload = parseJson(await response.text());
    } catch (error) {
      if (isAbort(error) && signal) throw error;
      if (isAbort(error)) throw new ApiError(0, null, "Cancelled.", null, true);
      payload = null;
    }
    if (!response.ok) {
      const problem = (payload && payload.error) || {};
      let message = problem.message || (payload && typeof payload.detail === "string" && payload.detail)
        || `The server answered ${response.status}.`;
      if (response.status === 503) {
        const wait = response.headers.get("Retry-After");
        message = `The server is busy${wait ? `: try again in ${wait} s` : ""}. ${problem.message || ""}`.trim();
      }
      throw new ApiError(response.status, problem.field || null, message,
        response.headers.get("Retry-After"));
    }
    return payload;
  }

  /* ---- errors next to fields ---------------------------------------------------------- */

  function clearErrors() {
    for (const node of document.querySelectorAll(".field-error")) node.remove();
    for (const node of document.querySelectorAll("[aria-invalid]")) {
      node.removeAttribute("aria-invalid");
      const described = (node.getAttribute("aria-describedby") || "").split(" ")
        .filter((id) => id && !id.startsWith("error-")).join(" ");
      if (described) node.setAttribute("aria-describedby", described);
      else node.removeAttribute("aria-describedby");
    }
    $("form-error").hidden = true;
    $("form-error").textContent = "";
  }

  /** The control for an error's field path: the closest path with a control. */
  function controlFor(path) {
    let current = path;
    while (current) {
      const candidates = [...document.querySelectorAll("[data-field]")]
        .filter((node) => node.dataset.field === current && !node.closest("[hidden]"));
      if (candidates.length) return candidates[0];
      const shorter = current.replace(/(\.[^.[\]]+|\[\d+\])$/, "");
      if (shorter === current) break;
      current = shorter;
    }
    return null;
  }

  /** Show an error next to its field (else above the result). ``quiet``: the error of a
   *  recomputation the page started by itself, as the player types: the field is marked and
   *  told, but the focus stays where the player is. */
  function showError(error, quiet) {
    if (!(error instanceof ApiError)) {
      console.error(error); // eslint-disable-line no-console
      error = new ApiError(0, null, `Something went wrong in the page: ${error.message}`);
    }
    if (error.cancelled) {
      setStatus("Cancelled.");
      return;
    }
    const control = error.field ? controlFor(error.field) : null;
    // the API's message names the field as the command line does ("field: message")
    const text = !error.field || error.message.startsWith(`${error.field}:`)
      ? error.message : `${error.field}: ${error.message}`;
    if (control) {
      const id = `error-${Math.random().toString(36).slice(2, 10)}`;
      const note = el("p", { className: "field-error", id, role: "alert", text });
      const target = control.matches("input, select, textarea") ? control : null;
      if (target) {
        target.setAttribute("aria-invalid", "true");
        target.setAttribute("aria-describedby",
          [target.getAttribute("aria-describedby"), id].filter(Boolean).join(" "));
        (target.closest("td, .field, .check") || target).append(note);
        openDetails(target);
        if (!quiet) target.focus();
      } else if (control.closest("table")) {
        control.closest("table").after(note); // a whole table's error (the side's unit limit)
        openDetails(control);
      } else {
        control.append(note);
        openDetails(control);
      }
      setStatus("");
    } else {
      $("form-error").hidden = false;
      $("form-error").textContent = text;
      setStatus("");
    }
  }

  function openDetails(node) {
    for (let parent = node.parentElement; parent; parent = parent.parentElement) {
      if (parent.tagName === "DETAILS") parent.open = true;
    }
  }

  function setStatus(text) {
    $("status").textContent = text;
  }

  /** "Play one battle" and "share" at work: their buttons wait. (The odds have their own
   *  flow, ``computeOdds``: a newer request replaces the older, no button waits.) */
  function busy(flag) {
    page.abort = flag ? new AbortController() : null; // what the Cancel button stops
    page.live.other = flag;
    showBusy();
    for (const id of ["compute", "play", "share"]) $(id).disabled = flag;
    working(flag);
  }

  /** The form is busy while anything is asked of the server (tests and tools wait on it). */
  function showBusy() {
    const flag = Boolean(page.live.controller || page.live.other);
    $("battle-form").setAttribute("aria-busy", flag ? "true" : "false");
  }

  /** Milliseconds after which a request is no longer instant: a progress indicator shows
   *  (an indeterminate bar and the seconds waited) until the answer comes. */
  const INSTANT_MS = 400;
  let workingTimer = null;

  /** Start (or stop) the progress indicator of a request not answered at once. The API
   *  answers within the request (Monte Carlo stops as soon as every headline probability is
   *  known within ±0.5 points), so the indicator says that the work goes on and for how long. */
  function working(flag) {
    if (workingTimer !== null) {
      clearInterval(workingTimer);
      workingTimer = null;
    }
    $("working").hidden = true;
    if (!flag) return;
    const started = Date.now();
    const tick = () => {
      const waited = Date.now() - started;
      if (waited < INSTANT_MS) return;
      $("working").hidden = false;
      $("working-time").textContent = `${Math.floor(waited / 1000)} s`;
    };
    workingTimer = setInterval(tick, 250);
  }

  /* ---- actions ------------------------------------------------------------------------ */

  /* ---- the odds, recomputed as the player edits (issue 25) ---------------------------

     Every edit of the battle (a typed count, a box ticked, a row added, a stepper) is read
     from the form: when the request it makes is the one whose answer is shown, nothing is
     out of date; otherwise the answer shown is marked out of date at once, a request under way
     is abandoned (its fetch aborted: the server stops its work), and, unless the last answer
     was slow, the odds are asked again: at once after a pause in the editing, else once the
     editing pauses for QUIET_MS (a field of text always waits for the pause: half a word is no
     battle). A slow battle (its last answer took SLOW_MS or more) is not recomputed by itself:
     its odds are marked out of date until "Compute odds" is pressed (docs/rulings.md 25P-1). */

  /** Milliseconds of quiet after an edit before the odds are asked again. */
  const QUIET_MS = 200;
  /** An answer that took this long (ms) makes the next edits wait for "Compute odds". */
  const SLOW_MS = 1500;

  /** The request the form gives now (its JSON text), or null when the form cannot give one
   *  (EC4X's JSON half typed, say); and the battle alone (no method, trials, seed or rounds). */
  function formKeys() {
    try {
      return { odds: requestBody(oddsOptions()), battle: `${page.ruleset} ${requestBody({})}` };
    } catch (error) {
      return { odds: null, battle: null };
    }
  }

  /** Whether an edit may recompute by itself: the player allows it and the battle is quick. */
  function autoAllowed() {
    const live = page.live;
    const running = live.controller ? performance.now() - live.started : 0;
    return $("auto-compute").checked && live.lastMs < SLOW_MS && running < SLOW_MS;
  }

  /** The form changed (an input, a change, a click on one of its buttons). */
  function edited(event) {
    if (!page.ready) return;
    const live = page.live;
    const target = event && event.target;
    // EC4X's JSON is read when the box is left, not at each key (half typed, it is no JSON)
    if (event && event.type === "input" && target && target.tagName === "TEXTAREA") return;
    const keys = formKeys();
    if (page.logKey && keys.battle !== page.logKey) clearBattleLog();
    if (keys.odds !== null && keys.odds === live.askedKey && live.controller) return;
    if (keys.odds !== null && keys.odds === live.shownKey) {
      abandonOdds();
      clearTimeout(live.timer);
      live.timer = null;
      markCurrent(); // back to the battle whose odds are shown
      return;
    }
    abandonOdds();
    markStale();
    const now = performance.now();
    const pause = now - live.lastEdit >= QUIET_MS;
    live.lastEdit = now;
    clearTimeout(live.timer);
    live.timer = null;
    if (!autoAllowed()) return;
    const typing = target && target.tagName === "INPUT" && target.type === "text";
    if (pause && !typing) {
      computeOdds(null, true);
    } else {
      live.timer = setTimeout(() => computeOdds(null, true), QUIET_MS);
    }
  }

  /** Abandon the odds request under way: its answer would be of another battle. */
  function abandonOdds() {
    const live = page.live;
    live.seq += 1;
    if (!live.controller) return;
    const ran = performance.now() - live.started;
    if (ran >= SLOW_MS) live.lastMs = ran;
    live.controller.abort();
    live.controller = null;
    live.askedKey = null;
    working(false);
    showBusy();
  }

  /** The odds shown do not belong to the battle shown (or there are none yet). */
  function markStale() {
    const results = $("results");
    const manual = !autoAllowed();
    const computing = !manual || page.live.controller;
    const said = computing ? "Out of date: computing the odds of the battle as it is now…"
      : $("auto-compute").checked
        ? "Out of date: this battle is slow to compute (the last answer took "
          + `${(page.live.lastMs / 1000).toFixed(1)} s); press \u201cCompute odds\u201d.`
        : "Out of date: press \u201cCompute odds\u201d for the battle as it is now.";
    if (!results.hidden) {
      results.dataset.stale = "true";
      $("result-state").hidden = false;
      $("result-state").textContent = said;
    }
    $("summary-bar").dataset.stale = "true";
    $("summary-compute").hidden = Boolean(computing);
    if (!results.hidden) setStatus(said);
    else setStatus(computing ? "Computing the odds…" : "");
  }

  /** The odds shown are those of the battle shown. */
  function markCurrent() {
    delete $("results").dataset.stale;
    $("result-state").hidden = true;
    $("result-state").textContent = "";
    delete $("summary-bar").dataset.stale;
    $("summary-compute").hidden = true;
    if (page.odds) setStatus(page.odds.cached ? "Odds computed (from the store)." : "Odds computed.");
  }

  /** No odds shown (another ruleset): the result is cleared, not kept out of date. */
  function clearResult() {
    abandonOdds();
    clearTimeout(page.live.timer);
    page.live.timer = null;
    page.odds = null;
    page.live.shownKey = null;
    page.live.lastMs = 0;
    $("results").hidden = true;
    delete $("results").dataset.stale;
    $("result-state").hidden = true;
    for (const id of ["odds-headline", "odds-bar", "odds-legend", "fleets-left", "extras",
      "odds-figures", "survivors"]) $(id).replaceChildren();
    for (const id of Object.keys(page.charts)) drawChart(id, null);
    $("summary-bar").hidden = true;
    document.body.classList.remove("with-summary");
    setStatus("");
  }

  function clearBattleLog() {
    page.logKey = null;
    $("battle-log").hidden = true;
    $("battle-text").textContent = "";
    $("battle-seed").textContent = "";
    delete $("battle-log").dataset.seed;
    delete $("battle-log").dataset.logId;
  }

  /** Ask the odds of the battle on the form. ``auto``: asked by an edit, not by the button
   *  (errors are told without moving the focus). A newer request abandons this one. */
  async function computeOdds(event, auto) {
    if (event) event.preventDefault();
    const live = page.live;
    clearTimeout(live.timer);
    live.timer = null;
    abandonOdds();
    clearErrors();
    const seq = live.seq;
    const controller = new AbortController();
    live.controller = controller;
    live.started = performance.now();
    showBusy();
    working(true);
    setStatus("Computing the odds…");
    let body;
    try {
      const scenario = collectScenario();
      body = requestBody(oddsOptions());
      live.askedKey = body;
      const answer = await api("POST", "/odds", body, controller.signal);
      if (seq !== live.seq) return; // abandoned: a newer edit or request
      // what the result was computed from: "share" links the result while nothing changed
      page.odds = Object.assign({ scenarioSent: scenario }, answer);
      live.shownKey = body;
      renderReport(answer.report);
      markCurrent();
      setShareUrl(answer.scenario_id, answer.result_id);
      if (!auto) $("results").focus({ preventScroll: true });
    } catch (error) {
      if (isAbort(error) || seq !== live.seq) return;
      if (error instanceof ApiError && error.status === 503 && auto) {
        // the server sheds work it cannot start at once: ask again when it says, unless the
        // player edits first (the edit asks for itself)
        const wait = Math.min(30, Math.max(1, Number(error.retryAfter) || 1));
        setStatus(`The server is busy: the odds are asked again in ${wait} s.`);
        live.timer = setTimeout(() => computeOdds(null, true), wait * 1000);
        return;
      }
      showError(error, auto);
      if (!$("results").hidden) {
        $("result-state").hidden = false;
        $("result-state").textContent = "Out of date: the battle as it is now has an error "
          + "(see the field marked).";
      }
    } finally {
      if (seq === live.seq) {
        live.lastMs = performance.now() - live.started;
        live.controller = null;
        live.askedKey = null;
        working(false);
        showBusy();
      }
    }
  }

  /** Why Monte Carlo stopped (docs/protocol.md, its stopping rule), when the rule was on. */
  function stoppedBecause(precision) {
    if (!precision) return "";
    const points = (value) => (100 * value).toFixed(2);
    return precision.reached
      ? `: every headline within ±${points(precision.target)} points`
      : `: stopped at the trials asked for, widest ±${points(precision.widest)} points `
        + `(target ±${points(precision.target)})`;
  }

  /** The odds request's fields: the method, and trials, seed and rounds when typed (rounds
   *  for the exact method only). */
  function oddsOptions() {
    const method = $("method").value;
    const out = { method };
    const names = method === "exact" ? ["trials", "seed", "rounds"] : ["trials", "seed"];
    for (const name of names) {
      const input = $(name);
      const text = input.value.trim();
      if (name === "seed" && /^\d+$/.test(text)) {
        out[name] = new Digits(text.replace(/^0+(?=\d)/, ""));
      } else if (text !== "" || (input.validity && input.validity.badInput)) {
        out[name] = countValue(input);
      }
    }
    return out;
  }

  function showMethod() {
    const exact = $("method").value === "exact";
    $("rounds-field").hidden = !exact;
    $("rounds-help").hidden = !exact;
    $("sampling-help").textContent = exact
      ? "Trials and seed serve the Monte Carlo fallback, when a battle is too large for exact odds."
      : "Trials and seed of the Monte Carlo run (the same seed gives the same figures).";
  }

  async function playOne() {
    clearErrors();
    busy(true);
    setStatus("Playing one battle…");
    try {
      const answer = await api("POST", "/resolve", requestBody({ seed: null }));
      $("battle-log").hidden = false;
      $("battle-seed").textContent = `Seed ${answer.seed}: the same seed plays the same battle.`;
      $("battle-text").textContent = answer.text;
      $("battle-log").dataset.seed = String(answer.seed);
      $("battle-log").dataset.logId = answer.log_id || "";
      page.logKey = formKeys().battle; // the log belongs to this battle: another removes it
      setStatus("One battle played.");
      $("battle-log").focus({ preventScroll: true });
      $("battle-log").scrollIntoView({ block: "nearest" });
    } catch (error) {
      showError(error);
    } finally {
      busy(false);
    }
  }

  async function share() {
    clearErrors();
    busy(true);
    try {
      const scenario = collectScenario();
      let link;
      if (page.odds && JSON.stringify(page.odds.scenarioSent) === JSON.stringify(scenario)) {
        link = setShareUrl(page.odds.scenario_id, page.odds.result_id);
      } else {
        const saved = await api("POST", "/scenarios", requestBody({}));
        link = setShareUrl(saved.id, null);
      }
      $("share-panel").hidden = false;
      $("share-link").value = link;
      $("share-link").focus();
      $("share-link").select();
      setStatus("The link opens this battle.");
    } catch (error) {
      showError(error);
    } finally {
      busy(false);
    }
  }

  function setShareUrl(scenarioId, resultId) {
    const url = new URL("/", window.location.href);
    url.searchParams.set("s", scenarioId);
    if (resultId) url.searchParams.set("r", resultId);
    window.history.replaceState(null, "", url.pathname + url.search);
    $("share-link").value = url.href;
    return url.href;
  }

  async function copyLink() {
    const link = $("share-link").value;
    try {
      await navigator.clipboard.writeText(link);
      setStatus("Link copied.");
    } catch (error) {
      $("share-link").select();
      setStatus("Select the link and copy it.");
    }
  }

  /* ---- the report --------------------------------------------------------------------- */

  /** An EC4X house's colour: the same in the bar, the charts and the lists. */
  function houseColour(report, house) {
    const i = Object.keys(report.houses || report.results || {}).sort().indexOf(house);
    return HOUSE_COLOURS[Math.max(0, i) % HOUSE_COLOURS.length];
  }

  /** The outcomes to show in the bar, in order: [{key, label, p, colour}]. */
  function outcomes(report) {
    if (report.results && report.houses) {
      return Object.keys(report.results).sort().map((house) => ({
        key: house, label: `${house} holds`, p: report.results[house],
        colour: houseColour(report, house),
      }));
    }
    const list = [
      { key: "attacker_win", label: "Attacker wins", colour: COLOURS.attacker },
      { key: "mixed", label: "Mixed (some planets)", colour: COLOURS.mixed },
      { key: "draw", label: "Draw", colour: COLOURS.draw },
      { key: "no_combat", label: "No combat", colour: COLOURS.no_combat },
      { key: "defender_win", label: "Defender wins", colour: COLOURS.defender },
    ];
    return list.filter((o) => typeof report[o.key] === "number"
      && (report[o.key] > 0 || ["attacker_win", "draw", "defender_win"].includes(o.key)))
      .map((o) => Object.assign(o, { p: report[o.key] }));
  }

  /** Each party's survivors, losses and colour: [{key, label, survivors, losses, colour}]. */
  function parties(report) {
    if (report.houses) {
      return Object.keys(report.houses).sort().map((house) => ({
        key: house, label: house, survivors: report.houses[house].survivors,
        losses: report.houses[house].expected_losses, colour: houseColour(report, house),
      }));
    }
    return SIDES.filter((side) => report.survivors && report.survivors[side]).map((side) => ({
      key: side, label: pretty(side), survivors: report.survivors[side],
      losses: (report.expected_losses || {})[side], colour: COLOURS[side],
    }));
  }

  function interval(report, key) {
    const ci = report.confidence_95 && (report.confidence_95[key]
      || (report.confidence_95.results || {})[key]);
    return Array.isArray(ci) ? ` (95%: ${percent(ci[0])}–${percent(ci[1])})` : "";
  }

  /** What a player reads first (the tactical action's words, docs/protocol.md): who holds
   *  the system once the space combat is over (each house, in EC4X), then the chance that you,
   *  the attacker, take each planet (and every planet) (docs/rulings.md 22H-1, 25P-3). */
  function renderHeadline(report) {
    const box = $("odds-headline");
    box.replaceChildren();
    const around = report.confidence_95 || {};
    const figure = (p, ci, key) => [dataValue(p, percent(p, 1), key),
      Array.isArray(ci) ? el("span", { className: "ci",
        text: ` (95%: ${percent(ci[0], 1)}–${percent(ci[1], 1)})` }) : ""];
    const holder = (label, p, ci, key) => el("span", { className: "holder" }, `${label} `,
      ...figure(p, ci, key));
    const parts = [];
    if (report.holds && !report.houses) {
      const ci = around.holds || {};
      parts.push(el("span", { dataset: { holds: "attacker" } },
        el("span", { className: "lead", text: "Who holds the system" }),
        holder("You (attacker)", report.holds.attacker, ci.attacker, "holds_attacker"),
        holder("Defender", report.holds.defender, ci.defender, "holds_defender"),
        holder("Neither", report.holds.neither, ci.neither, "holds_neither")));
    } else if (report.houses && report.results) {
      const ci = around.results || {};
      parts.push(el("span", { dataset: { holds: "houses" } },
        el("span", { className: "lead", text: "Who holds the system" }),
        Object.keys(report.results).sort().map((house) =>
          holder(house, report.results[house], ci[house], `holds_${house}`))));
    }
    const taken = Object.entries(report.taken || {});
    for (const [planet, p] of taken) {
      const name = planet === "planet" ? "the planet" : planet;
      parts.push(el("span", { className: "take", dataset: { planet } }, `You take ${name} `,
        ...figure(p, (around.taken || {})[planet], "taken")));
    }
    if (taken.length > 1 && typeof report.taken_all === "number") {
      parts.push(el("span", { className: "take", dataset: { takenAll: "" } }, "You take every planet ",
        ...figure(report.taken_all, around.taken_all, "taken_all")));
    }
    box.hidden = !parts.length;
    box.append(...parts);
  }

  /** Draw a report: the player's words first (who holds the system, each planet taken, the
   *  bar with retreats as their own segments, what is left of each fleet), then, folded under
   *  "Details", every figure as the engine gives it, the charts and the rounds. */
  function renderReport(report) {
    const section = $("results");
    section.hidden = false;
    section.dataset.method = report.method;
    section.dataset.residual = String(report.residual ?? "");
    section.dataset.ruleset = page.ruleset;
    $("odds-kind").textContent = report.method === "exact" ? "(exact)"
      : `(Monte Carlo${report.trials ? `, ${report.trials.toLocaleString("en")} battles` : ""})`;

    renderHeadline(report);
    const bar = segments(report);
    renderBar($("odds-bar"), bar, false);
    renderLegend(bar);
    renderFleetsLeft(report);

    // every result as the engine counts it (a retreat is the other side's win), exact
    const list = outcomes(report);
    const figures = $("odds-figures");
    figures.replaceChildren();
    for (const o of list) {
      figures.append(el("div", { className: "figure" },
        el("dt", {}, el("span", { className: "swatch", style: `background:${o.colour}` }), o.label),
        el("dd", {}, dataValue(o.p, percent(o.p, 4), o.key), interval(report, o.key))));
    }
    for (const [key, label] of [["planet_taken", "Planet taken"], ["invaded", "Invasion made"],
      ["taken_all", "Every planet taken"]]) {
      if (typeof report[key] === "number") {
        figures.append(el("div", { className: "figure" }, el("dt", { text: label }),
          el("dd", {}, dataValue(report[key], percent(report[key], 4), key), interval(report, key))));
      }
    }
    if (typeof report.residual === "number") {
      figures.append(el("div", { className: "figure residual" }, el("dt", { text: "Residual" }),
        el("dd", {}, dataValue(report.residual, report.residual.toExponential(1), "residual"))));
    }
    const method = report.method === "exact" ? "Exact odds."
      : `Monte Carlo odds${report.trials ? ` over ${report.trials.toLocaleString("en")} battles` : ""}, `
        + `with 95% intervals${stoppedBecause(report.precision)}.`;
    const counted = Object.keys(report.retreats || {}).length
      ? " These results count a retreat as the other side's win." : "";
    $("odds-method").textContent = method + counted + (report.note ? ` ${report.note}` : "");

    renderSurvivors(report);
    renderLosses(report);
    renderRounds(report.rounds || {});
    renderExtras(report);
    renderSummary(report, bar);
  }

  /** The word for a retreat of ``player``: TI3's attacker withdraws, the rest retreat. */
  function retreatWord(player) {
    return page.ruleset === "ti3" && player === "attacker" ? "withdraws" : "retreats";
  }

  /** The bar's segments, in order: [{key, label, p, colour, retreat}]. The engine counts a
   *  retreat as the other side's win (analysis/text.py); the bar shows it as a segment of its
   *  own, next to that win, which keeps the rest (docs/rulings.md 25P-2). Not split: a
   *  tactical action's defender retreat (the attacker then holds the system and invades: the
   *  action's result is the invasion's), and EC4X (the bar is who holds the system; a house's
   *  retreat is one of its fates, listed under Houses). */
  function segments(report) {
    const list = outcomes(report);
    if (report.houses) return list;
    const retreats = report.retreats || {};
    const tactical = typeof report.invaded === "number";
    const out = [];
    for (const o of list) {
      const winner = { attacker_win: "attacker", defender_win: "defender" }[o.key];
      const loser = winner && SIDES.find((side) => side !== winner);
      const retreat = loser ? retreats[loser] : null;
      if (!retreat || !(retreat.probability > 0) || (tactical && loser === "defender")) {
        out.push(o);
        continue;
      }
      const away = Math.min(retreat.probability, o.p);
      const segment = { key: `${loser}_retreat`, label: `${pretty(loser)} ${retreatWord(loser)}`,
        p: away, colour: COLOURS[`${loser}_retreat`], retreat: true };
      const rest = Object.assign({}, o, { p: Math.max(0, o.p - away) });
      if (winner === "attacker") out.push(rest, segment); else out.push(segment, rest);
    }
    return out;
  }

  /** The odds bar (or the summary bar's small one): one segment per outcome. */
  function renderBar(bar, list, mini) {
    bar.replaceChildren();
    for (const o of list) {
      const segment = el("span", { className: "segment" + (o.retreat ? " retreat" : ""),
        dataset: { key: o.key, value: String(o.p) } });
      segment.style.width = `${100 * o.p}%`;
      segment.style.background = o.colour;
      if (!mini && o.p >= 0.08) segment.textContent = percent(o.p, 1);
      segment.title = `${o.label}: ${percent(o.p)}`;
      bar.append(segment);
    }
    if (!mini) bar.setAttribute("aria-label", list.map((o) => `${o.label} ${percent(o.p)}`).join(", "));
  }

  /** The bar's legend: each segment's name and chance. */
  function renderLegend(list) {
    $("odds-legend").replaceChildren(...list.map((o) => el("div", { className: "figure" },
      el("dt", {}, el("span", { className: "swatch", style: `background:${o.colour}` }), o.label),
      el("dd", {}, dataValue(o.p, percent(o.p, 1), o.key)))));
  }

  /** "2 cruisers, 1 destroyer": a fleet in words, its costliest units first. */
  function fleetWords(units) {
    const list = Object.entries(units || {}).filter(([, n]) => n > 0)
      .sort((a, b) => (genericCard(b[0]).cost ?? 0) - (genericCard(a[0]).cost ?? 0));
    if (!list.length) return "nothing";
    return list.map(([unit, n]) => `${n} ${unitWord(unit, n)}`).join(", ");
  }

  /** A unit's name in a sentence: "cruiser", "cruisers", "PDS", "infantry". */
  function unitWord(unit, n) {
    let name = unitName(unit).replace(/\s+II$/, "");
    const acronym = name === name.toUpperCase();
    if (!acronym) name = name.toLowerCase();
    return n !== 1 && !acronym && !/(s|infantry)$/.test(name) ? `${name}s` : name;
  }

  /** Survivors by fleet, first: what is left of each side (or house), most likely first, and
   *  its expected losses. (Units left by count, as charts and tables, are under Details.) */
  function renderFleetsLeft(report) {
    const box = $("fleets-left");
    box.replaceChildren();
    for (const party of parties(report)) {
      const fleets = ((party.survivors || {}).fleets || []).slice()
        .sort((a, b) => b.probability - a.probability);
      if (!fleets.length) continue;
      const shown = fleets.slice(0, FLEETS_SHOWN);
      const rest = fleets.slice(FLEETS_SHOWN);
      const items = shown.map((fleet) => el("li", {},
        el("span", { text: fleetWords(fleet.units) }),
        dataValue(fleet.probability, percent(fleet.probability, 1))));
      if (rest.length) {
        const p = rest.reduce((a, f) => a + f.probability, 0);
        items.push(el("li", { className: "more" },
          el("span", { text: `${rest.length} other outcome${rest.length === 1 ? "" : "s"}` }),
          dataValue(p, percent(p, 1))));
      }
      box.append(el("div", { className: "fleet-left", dataset: { party: party.key } },
        el("h3", {}, el("span", { className: "swatch", style: `background:${party.colour}` }),
          `${party.label}: what is left`),
        el("ul", {}, items),
        typeof party.losses === "number" ? el("p", { className: "losses",
          text: `Expected losses: ${party.losses.toFixed(2)} resources` }) : null));
    }
  }

  /** The summary bar (narrow screens): the small bar and the headline in a line. */
  function renderSummary(report, bar) {
    const summary = $("summary-bar");
    summary.hidden = false;
    document.body.classList.add("with-summary");
    renderBar($("summary-odds"), bar, true);
    const said = [];
    if (report.holds && !report.houses) {
      said.push(`you hold the system ${percent(report.holds.attacker, 1)}`
        + ` · defender ${percent(report.holds.defender, 1)}`);
    } else if (report.houses && report.results) {
      said.push("holds: " + Object.entries(report.results).sort((a, b) => b[1] - a[1])
        .map(([house, p]) => `${house} ${percent(p, 1)}`).join(" · "));
    }
    const taken = Object.entries(report.taken || {});
    if (taken.length > 1 && typeof report.taken_all === "number") {
      said.push(`you take every planet ${percent(report.taken_all, 1)}`);
    } else if (taken.length === 1) {
      const [planet, p] = taken[0];
      said.push(`you take ${planet === "planet" ? "the planet" : planet} ${percent(p, 1)}`);
    }
    if (!said.length) said.push(bar.map((o) => `${o.label} ${percent(o.p, 1)}`).join(" · "));
    const text = said.join("; ");
    $("summary-text").textContent = text.charAt(0).toUpperCase() + text.slice(1);
  }

  function renderSurvivors(report) {
    const box = $("survivors");
    box.replaceChildren();
    for (const party of parties(report)) {
      const survivors = party.survivors || { fleets: [], at_least: {} };
      const canvasId = `survivors-chart-${party.key}`;
      const fleets = survivors.fleets || [];
      const most = Math.max(0, ...fleets.map((f) => sizeOf(f.units)),
        ...Object.keys(survivors.at_least || {}).map(Number));
      const exactly = new Array(most + 1).fill(0);
      for (const fleet of fleets) exactly[sizeOf(fleet.units)] += fleet.probability;
      const atLeast = exactly.map((_, k) => (k === 0 ? null : (survivors.at_least || {})[String(k)] ?? 0));
      const table = el("table", { className: "data" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Survivors" }),
          el("th", { scope: "col", text: "Probability" }))),
        el("tbody", {}, fleets.slice(0, 12).map((fleet) => el("tr", {},
          el("th", { scope: "row", text: fleetText(fleet.units) }),
          el("td", {}, dataValue(fleet.probability, percent(fleet.probability, 3)))))));
      const atLeastList = el("dl", { className: "figures at-least" },
        Object.entries(survivors.at_least || {}).map(([k, p]) => el("div", { className: "figure" },
          el("dt", { text: `≥ ${k} left` }), el("dd", {}, dataValue(p, percent(p, 2), k)))));
      const description = `${party.label} survivors: ` + Object.entries(survivors.at_least || {})
        .map(([k, p]) => `at least ${k} units ${percent(p, 1)}`).join(", ");
      box.append(el("figure", { className: "chart-card survivors", dataset: { side: party.key } },
        el("figcaption", { text: `${party.label}: units left` }),
        el("div", { className: "chart-box" },
          el("canvas", { id: canvasId, role: "img", "aria-label": description })),
        atLeastList,
        el("details", {}, el("summary", { text: "Most likely fleets" }), table)));
      drawChart(canvasId, {
        type: "bar",
        data: {
          labels: exactly.map((_, k) => String(k)),
          datasets: [
            { type: "line", label: "at least k left", data: atLeast, borderColor: "#222",
              backgroundColor: "#222", pointRadius: 3, tension: 0, spanGaps: false, order: 0 },
            { type: "bar", label: "exactly k left", data: exactly, backgroundColor: party.colour,
              order: 1 },
          ],
        },
        options: percentAxes("units left (k)"),
      });
    }
  }

  function renderLosses(report) {
    const list = parties(report).filter((p) => typeof p.losses === "number");
    const dl = $("losses");
    dl.replaceChildren(...list.map((p) => el("div", { className: "figure" },
      el("dt", {}, el("span", { className: "swatch", style: `background:${p.colour}` }), p.label),
      el("dd", {}, dataValue(p.losses, p.losses.toFixed(2), p.key)))));
    $("losses-figure").hidden = list.length === 0;
    $("losses-chart").setAttribute("aria-label", "Expected losses: "
      + list.map((p) => `${p.label} ${p.losses.toFixed(2)}`).join(", "));
    drawChart("losses-chart", {
      type: "bar",
      data: {
        labels: list.map((p) => p.label),
        datasets: [{ label: "expected losses", data: list.map((p) => p.losses),
          backgroundColor: list.map((p) => p.colour) }],
      },
      options: {
        indexAxis: "y", responsive: true, maintainAspectRatio: false, animation: false,
        plugins: { legend: { display: false } },
        scales: { x: { beginAtZero: true, title: { display: true, text: "resources" } } },
      },
    });
  }

  /** The rounds: one distribution, or, for a tactical action, one per stage (the space
   *  combat's rounds and the ground combat's, summed over the planets). */
  function renderRounds(rounds) {
    const staged = typeof rounds.space === "object" && rounds.space !== null;
    const stages = staged
      ? [["space", "Space combat", rounds.space || {}], ["ground", "Ground combat", rounds.ground || {}]]
      : [["battle", "battle ends in round", rounds]];
    const sorted = (stage) => Object.entries(stage.distribution || {})
      .map(([r, p]) => [Number(r), p]).sort((a, b) => a[0] - b[0]);
    const distributions = stages.map(([, , stage]) => sorted(stage));
    $("rounds-figure").hidden = distributions.every((d) => d.length === 0);
    const dl = $("rounds-figures");
    dl.replaceChildren();
    if (typeof rounds.expected === "number") {
      dl.append(el("div", { className: "figure" }, el("dt", { text: "Expected rounds" }),
        el("dd", {}, dataValue(rounds.expected, rounds.expected.toFixed(2), "expected"))));
    }
    stages.forEach(([key, label, stage]) => {
      if (staged && typeof stage.expected === "number") {
        dl.append(el("div", { className: "figure" }, el("dt", { text: `${label}: expected rounds` }),
          el("dd", {}, dataValue(stage.expected, stage.expected.toFixed(2), `${key}_expected`))));
      }
      if (stage.unfinished) {
        dl.append(el("div", { className: "figure" },
          el("dt", { text: staged ? `${label}: unfinished` : "Unfinished" }),
          el("dd", {}, dataValue(stage.unfinished, stage.unfinished.toExponential(1),
            staged ? `${key}_unfinished` : "unfinished"))));
      }
    });
    // the table: every round with its probability (one column per stage)
    const all = [...new Set(distributions.flatMap((d) => d.map(([r]) => r)))].sort((a, b) => a - b);
    const cell = (p, key) => el("td", {}, p === undefined ? "" : dataValue(p,
      p >= 1e-4 ? percent(p, 3) : p.toExponential(2), key));
    $("rounds-table").replaceChildren(
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Rounds" }),
        stages.map(([, label]) => el("th", { scope: "col", text: staged ? label : "Probability" })))),
      el("tbody", {}, all.map((r) => el("tr", {},
        el("th", { scope: "row", text: String(r) }),
        stages.map(([key], i) => cell(new Map(distributions[i]).get(r),
          staged ? `${key}-${r}` : String(r)))))));
    // the chart: rounds of any stage likely enough to see; the rest as "later"
    const likely = all.filter((r) => distributions.some((d) => (new Map(d).get(r) || 0)
      >= ROUNDS_SHOWN_FROM));
    const last = likely.length ? likely[likely.length - 1] : -1;
    const shownRounds = all.filter((r) => r <= last);
    const labels = shownRounds.map(String);
    const datasets = stages.map(([key, label], i) => {
      const byRound = new Map(distributions[i]);
      const data = shownRounds.map((r) => byRound.get(r) || 0);
      const rest = distributions[i].filter(([r]) => r > last).reduce((a, [, p]) => a + p, 0);
      return { label: staged ? `${label} ends in round` : label, data, rest,
        backgroundColor: key === "ground" ? "#8c6d4a" : "#4a6d8c" };
    });
    if (datasets.some((d) => d.rest > 0)) {
      labels.push("later");
      datasets.forEach((d) => d.data.push(d.rest));
    }
    $("rounds-chart").setAttribute("aria-label", "Rounds the battle lasts: " + datasets.map((d) =>
      (staged ? `${d.label}: ` : "") + shownRounds.map((r, j) => `${r}: ${percent(d.data[j], 1)}`)
        .join(", ")).join("; "));
    drawChart("rounds-chart", {
      type: "bar",
      data: { labels, datasets: datasets.map(({ rest, ...d }) => d) },
      options: percentAxes("rounds"),
    });
  }

  function renderExtras(report) {
    const box = $("extras");
    box.replaceChildren();
    if (report.retreats && Object.keys(report.retreats).length) {
      box.append(el("h3", { text: "Retreats" }), el("ul", {},
        Object.entries(report.retreats).map(([player, r]) => {
          const fleets = ((r.survivors || {}).fleets || []).slice(0, 3)
            .map((f) => `${fleetText(f.units)} (${percent(f.probability, 2)})`).join("; ");
          return el("li", { dataset: { player } }, `${pretty(player)} ${retreatWord(player)}: `,
            dataValue(r.probability, percent(r.probability, 3), "probability"),
            fleets ? `; gets away with ${fleets}` : "");
        })));
    }
    if (report.planets && Object.keys(report.planets).length) {
      box.append(el("h3", { text: "Planets" }), el("ul", {},
        Object.entries(report.planets).map(([name, planet]) => el("li", { dataset: { planet: name } },
          `${name}: taken `, dataValue(planet.taken, percent(planet.taken, 2), "taken"),
          planet.results ? ` (attacker wins ${percent(planet.results.attacker_win || 0, 1)}, `
            + `defender wins ${percent(planet.results.defender_win || 0, 1)}, `
            + `draw ${percent(planet.results.draw || 0, 1)}`
            + (planet.results.not_invaded ? `, not invaded ${percent(planet.results.not_invaded, 1)}`
              : "") + ")" : ""))));
    }
    if (report.houses) {
      box.append(el("h3", { text: "Houses" }), el("ul", {},
        Object.entries(report.houses).map(([house, h]) => el("li", { dataset: { house } },
          `${house}: holds ${percent(h.holds || 0)}, retreats ${percent(h.retreated || 0)}, `
          + `destroyed ${percent(h.destroyed || 0)}, not engaged ${percent(h.not_engaged || 0)}`))));
    }
    if (report.after_rounds) renderAfterRounds(box, report.after_rounds);
    const notices = [].concat(report.notices || []);
    if (notices.length) {
      box.append(el("h3", { text: "Notices" }),
        el("ul", {}, notices.map((n) => el("li", { text: typeof n === "string" ? n : JSON.stringify(n) }))));
    }
  }

  /** The state after N rounds: what is over by then, and the most likely states. */
  function renderAfterRounds(box, after) {
    const states = after.states || [];
    const shown = states.slice(0, AFTER_ROUNDS_SHOWN);
    const rest = states.slice(AFTER_ROUNDS_SHOWN);
    const items = Object.entries(after.over || {}).map(([result, p]) =>
      el("li", { dataset: { over: result } }, dataValue(p, percent(p, 3), "probability"),
        ` over: ${pretty(result)}`));
    shown.forEach((state, i) => items.push(el("li", { dataset: { state: String(i) } },
      dataValue(state.probability, percent(state.probability, 3), "probability"),
      ` ${stateText(state)}`)));
    if (rest.length) {
      const more = rest.reduce((a, s) => a + s.probability, 0);
      items.push(el("li", { className: "more" },
        `… and ${rest.length} more states (${percent(more, 3)})`));
    }
    box.append(el("div", { id: "after-rounds" },
      el("h3", { text: `After ${after.rounds} round${after.rounds === 1 ? "" : "s"}` }),
      el("ul", {}, items)));
  }

  /** A state's parties and their units, e.g. "attacker: 2 dreadnought (damaged) | defender: …". */
  function stateText(state) {
    const units = (list) => (Array.isArray(list) ? list.map((u) => (u && typeof u === "object"
      ? `${u.count ?? 1} ${u.unit ?? "?"}${u.status ? ` (${u.status})` : ""}` : String(u))).join(", ")
      : "");
    const parts = [];
    for (const [party, value] of Object.entries(state)) {
      if (party === "round" || party === "probability") continue;
      if (party === "stage") { // a tactical action's stage (docs/rulings.md 22T-4)
        parts.push(value === "space" ? "[space combat]" : "[invasion]");
        continue;
      }
      let said;
      if (value && typeof value === "object" && !Array.isArray(value) && "space" in value) {
        said = units(value.space) || "none";
        const planets = (value.planets || []).map(units).filter(Boolean);
        if (planets.length) said += `; on planets: ${planets.join(" / ")}`;
      } else if (Array.isArray(value)) {
        said = units(value) || "none";
      } else {
        said = typeof value === "object" ? JSON.stringify(value) : String(value);
      }
      parts.push(`${pretty(party)}: ${said}`);
    }
    return parts.join(" | ");
  }

  function percentAxes(xTitle) {
    return {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: "index", intersect: false },
      plugins: {
        legend: { position: "bottom" },
        tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${percent(ctx.parsed.y ?? 0)}` } },
      },
      scales: {
        x: { title: { display: true, text: xTitle } },
        y: { min: 0, max: 1, ticks: { callback: (v) => `${Math.round(v * 100)}%` } },
      },
    };
  }

  function drawChart(canvasId, config) {
    if (page.charts[canvasId]) {
      page.charts[canvasId].destroy();
      delete page.charts[canvasId];
    }
    if (!config) return; // the chart removed
    if (typeof window.Chart !== "function") return; // the tables still show every number
    const canvas = $(canvasId);
    if (!canvas) return;
    page.charts[canvasId] = new window.Chart(canvas, config);
  }

  /* ---- start ------------------------------------------------------------------------ */

  async function loadShared(params) {
    const scenarioId = params.get("s");
    const resultId = params.get("r");
    try {
      const saved = await api("GET", `/scenarios/${encodeURIComponent(scenarioId)}`);
      applyScenario(saved.scenario);
      if (resultId) {
        const result = await api("GET", `/results/${encodeURIComponent(resultId)}`);
        page.odds = { scenario_id: result.scenario_id, result_id: result.id, report: result.report,
          scenarioSent: collectScenario() };
        if (result.method && $("method").querySelector(`option[value="${result.method}"]`)) {
          $("method").value = result.method;
          showMethod();
        }
        // the options the result was computed with, so that "compute" asks the same again
        const options = result.options || {};
        for (const name of ["trials", "seed", "rounds"]) {
          $(name).value = options[name] === undefined || options[name] === null ? "" : String(options[name]);
        }
        renderReport(result.report);
        // the stored answer is that of the form as loaded: an edit marks it out of date
        page.live.shownKey = formKeys().odds;
        markCurrent();
        if (["trials", "seed", "rounds"].some((name) => $(name).value !== "")) {
          $("sampling-details").open = true;
        }
      }
      setShareUrl(scenarioId, resultId);
      setStatus("The shared battle is loaded.");
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        error = new ApiError(404, null, "That shared battle does not exist (or is no longer stored).");
      }
      showError(error);
      return false;
    }
  }

  function defaultScenario() {
    const units = page.catalogue[page.ruleset].units || [];
    const pick = (unit, fallback) => (units.includes(unit) ? unit : fallback);
    return {
      ruleset: page.ruleset,
      battle: "space",
      attacker: { units: { [pick("dreadnought", units[0])]: 2 } },
      defender: { units: { [pick("cruiser", units[1] || units[0])]: 3 } },
    };
  }

  function wire() {
    $("battle-form").addEventListener("submit", computeOdds);
    $("play").addEventListener("click", playOne);
    $("share").addEventListener("click", share);
    $("copy-link").addEventListener("click", copyLink);
    $("cancel").addEventListener("click", () => {
      if (page.abort) page.abort.abort();
      if (page.live.controller) {
        abandonOdds();
        markStale();
        setStatus("Cancelled.");
      }
    });
    $("ruleset").addEventListener("change", () => {
      page.extra = { top: {}, sides: {}, system: {} };
      // another ruleset: the odds and the battle log of the last one go (issue 25 item 2)
      clearResult();
      clearBattleLog();
      buildForm($("ruleset").value);
      if (page.ruleset !== "ec4x") applyScenario(defaultScenario());
      clearErrors();
    });
    $("battle").addEventListener("change", showBattleKind);
    $("method").addEventListener("change", () => {
      showMethod();
      if ($("method").value === "montecarlo") $("sampling-details").open = true;
    });
    showMethod();
    // every edit of the form: recompute (or mark the odds out of date), after the control's
    // own handlers (the form hears the event last)
    for (const type of ["input", "change", "click"]) {
      $("battle-form").addEventListener(type, (event) => {
        if (type === "change") updateSamplingBadge();
        edited(event);
      });
    }
    $("auto-compute").addEventListener("change", () => {
      page.live.lastMs = 0;
      edited(null);
    });
    $("summary-link").addEventListener("click", () => { $("results").focus({ preventScroll: true }); });
    $("battle-form").addEventListener("change", (event) => {
      const target = event.target;
      if (target.dataset && target.dataset.law) updateLawCount();
      if (target.dataset && target.dataset.tech) {
        updateTechCount(target.closest(".side").id.replace("side-", ""));
      }
      if (target.getAttribute("aria-invalid")) clearErrors();
    });
  }

  async function start() {
    wire();
    try {
      const answer = await api("GET", "/rulesets");
      page.catalogue = answer.rulesets || answer;
      Object.values(page.catalogue).forEach(withdrawRefusedUnits);
    } catch (error) {
      showError(error);
      return;
    }
    buildRulesetChoices();
    const first = page.catalogue.ti4 ? "ti4" : Object.keys(page.catalogue)[0];
    buildForm(first);
    const params = new URLSearchParams(window.location.search);
    let loaded = true;
    if (params.get("s")) {
      loaded = await loadShared(params);
    } else {
      applyScenario(defaultScenario());
    }
    updateSamplingBadge();
    page.ready = true;
    $("battle-form").dataset.ready = "true";
    showBusy();
    // the battle's odds at once (a shared result is shown as it was stored)
    if (loaded && !page.odds) edited(null);
  }

  /** The folded trials, seed and rounds say what is set in them. */
  function updateSamplingBadge() {
    const set = ["trials", "seed", "rounds"].filter((name) => $(name).value.trim() !== ""
      && !$(`${name}-field`).hidden);
    $("sampling-badge").textContent = set.length ? `(${set.join(", ")} set)` : "";
  }

  /** What units.js reads and sets the form through (its swap and reset, the catalogue). */
  window.spacecombatPage = {
    catalogue: () => page.catalogue[page.ruleset] || {},
    ruleset: () => page.ruleset,
    collectScenario,
    applyScenario,
    defaultScenario,
    pretty,
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
