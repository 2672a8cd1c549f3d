/* spacecombat: the EC4X scenario as a form (issue 25, item 6).
 *
 * Plain JavaScript, no build step, loaded before app.js. Everything the form offers comes from
 * the EC4X catalogue of GET /api/v1/rulesets: the house fields (HouseSpec), the statuses of
 * diplomacy (8.1), the ship classes (flagships: a class with a command rating; escorts: the
 * ships), the squadron's states, ROE levels (7.1.1), the orders of 6.2 with their
 * requirements, the colony's fields (2.4.1, 7.4-7.6) and the rule options; nothing here lists
 * a class, an order or an option.
 *
 * app.js calls window.spacecombatEc4x:
 *   build(container, catalogue, helpers)  the form in `container` (once; kept across rulesets)
 *   apply(scenario)   fill the form from a scenario (a share link, a saved scenario)
 *   collect()         the scenario (throws helpers.fieldError for JSON that does not parse)
 *   text()            the scenario as JSON text for a request (a 64-bit seed kept as digits)
 *   source()          "form" or "json": which of the two the scenario is read from
 *
 * Field paths: every control has a `data-field` with the path the API names in a 422
 * (`fleets[1].squadrons[0].flagship`, `houses.alpha.prestige`, `colony.batteries.crippled`),
 * set each time the scenario is collected, so that app.js's `controlFor` finds it.
 *
 * The JSON view (advanced): the textarea #scenario-json always shows the scenario. Editing it
 * fills the form, and the scenario is then read from the JSON as written (nothing the form
 * cannot show is lost, a 64-bit seed stays exact); editing the form makes the form the source
 * again and rewrites the JSON. A loaded scenario that the form does not give back key for key
 * is kept as JSON the same way until the form is edited.
 */
"use strict";

(function () {
  /** Names for new houses (the examples' names), then house4, house5, ... */
  const NEW_HOUSE_NAMES = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
  /** Shorter labels for the schema's field names. */
  const LABELS = {
    prestige: "Prestige",
    morale_roll: "Morale d20 (if rolled)",
    auto_critical_used: "Auto-critical used this turn",
    aco: "ACO level",
    retreat_lane: "Retreat lane",
    retreat: "Retreat",
    fighters: "Fighter squadrons",
    pu: "Population (PU)",
    fd: "Fighter Doctrine (FD)",
    shield: "Shield level (SLD; 0 none)",
    batteries: "Ground batteries",
    armies: "Armies",
    marines: "Space Marines",
    spaceports: "Spaceports",
    iu: "Industry (IU)",
  };

  const ctx = {
    cat: null, // the EC4X catalogue
    helpers: {}, // {colours, fieldError}
    root: null, // the form's container
    source: "form", // where the scenario is read from: "form" or "json"
    parsed: null, // the JSON view's scenario (source "json")
    jsonError: null, // why the JSON view's text does not parse
    next: 0, // a counter for unique element ids
    extra: { top: {}, system: {}, options: {} }, // keys the form has no control for
  };

  const $ = (id) => document.getElementById(id);

  /* ---- small DOM helpers (el: dom.js) ----------------------------------------------- */

  const { el } = window.spacecombatDom; // dom.js

  function uid(what) {
    ctx.next += 1;
    return `ec4x-${what}-${ctx.next}`;
  }

  function field(labelText, control, extraClass) {
    return el("div", { className: "field" + (extraClass ? " " + extraClass : "") },
      el("label", { for: control.id, text: labelText }), control);
  }

  function selectOf(id, choices, attrs) {
    const node = el("select", Object.assign({ id }, attrs || {}));
    for (const c of choices) node.append(el("option", { value: String(c.value), text: c.label }));
    return node;
  }

  function numberInput(id, attrs) {
    return el("input", Object.assign({ type: "number", id, step: 1, inputmode: "numeric",
      autocomplete: "off", className: "count" }, attrs || {}));
  }

  function textInput(id, attrs) {
    return el("input", Object.assign({ type: "text", id, autocomplete: "off" }, attrs || {}));
  }

  function removeButton(label, onclick) {
    return el("button", { type: "button", className: "remove", text: "Remove",
      "aria-label": label, onclick });
  }

  function pretty(id) {
    const words = String(id).replace(/_/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function two(code) {
    return String(code).padStart(2, "0");
  }

  /* ---- values ------------------------------------------------------------------------- */

  /** A number input's value: undefined when empty, a number when it reads as one, else the
   *  text as typed (the API says what is wrong with it, under the field). */
  function numberValue(input) {
    const text = input.value.trim();
    if (text === "") return input.validity && input.validity.badInput ? "?" : undefined;
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }

  /** A select's value, sent when it differs from the schema's default or was in the loaded
   *  scenario (so a scenario gives back the keys it had). */
  function selectValue(node) {
    const raw = node.value;
    const value = node.dataset.type === "integer" ? Number(raw)
      : node.dataset.type === "boolean" ? raw === "true" : raw;
    if (node.dataset.explicit === "true") return value;
    if (node.dataset.default !== undefined && raw === node.dataset.default) return undefined;
    return value;
  }

  /** Set a select from a scenario's value (undefined: its default). */
  function setSelect(node, value) {
    if (value === undefined || value === null) {
      if (node.dataset.default !== undefined) node.value = node.dataset.default;
      node.dataset.explicit = "false";
      return;
    }
    node.value = String(value);
    node.dataset.explicit = "true";
  }

  function setNumber(input, value) {
    input.value = value === undefined || value === null ? "" : String(value);
  }

  function put(obj, key, value) {
    if (value !== undefined) obj[key] = value;
  }

  /** A list's rows (an error shown under the list is not one). */
  function items(list, className) {
    return [...list.children].filter((node) => node.classList.contains(className));
  }

  function setPath(node, path) {
    node.dataset.field = path;
  }

  /** The keys of `spec` that are not in `known`. */
  function rest(spec, known) {
    const out = {};
    for (const [k, v] of Object.entries(spec || {})) if (!known.includes(k)) out[k] = v;
    return out;
  }

  /** JSON with every object's keys sorted: two scenarios equal whatever their keys' order. */
  function canonical(value) {
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    if (value && typeof value === "object") {
      return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
        .join(",")}}`;
    }
    return JSON.stringify(value);
  }

  /** JSON, a seed of more than 53 bits kept as its digits (text) rather than rounded. */
  function parseJson(text) {
    return JSON.parse(text.replace(/("seed"\s*:\s*)(-?\d+)(?![\d.eE])/g,
      (all, key, digits) => (Number.isSafeInteger(Number(digits)) ? all : `${key}"${digits}"`)));
  }

  /** A scenario as JSON text, a seed kept as digits sent as a number again. */
  function scenarioText(scenario, indent) {
    return JSON.stringify(scenario, null, indent).replace(/("seed": ?)"(-?\d+)"/g, "$1$2");
  }

  /* ---- controls from the catalogue's JSON Schema -------------------------------------- */

  function schemaOptions(prop) {
    return prop.anyOf ? prop.anyOf.filter((p) => p.type !== "null") : [prop];
  }

  function definition(ref, defs) {
    return (defs || {})[String(ref).split("/").pop()] || null;
  }

  /** A control for one schema property: {node, read(), write(value), path(prefix)}, or null
   *  when the form has none for it (the key is then kept as loaded). Kinds: an enum (a
   *  select), a boolean (a checkbox), a whole number (maybe none: empty), a constant or a
   *  one-key object (``retreat: roe | never | {after_round: N}``), undamaged and crippled
   *  counts (``batteries``). */
  function schemaControl(name, prop, defs, labelText) {
    const options = schemaOptions(prop);
    const label = labelText || LABELS[name] || pretty(name);
    const id = uid(name);
    const fallback = prop.default;
    const only = options.length === 1 ? options[0] : null;
    if (only && only.enum) {
      const node = selectOf(id, only.enum.map((v) => ({ value: v,
        label: v === fallback ? `${v} (default)` : String(v) })), { "data-key": name });
      if (fallback !== undefined) node.dataset.default = String(fallback);
      setSelect(node, undefined);
      return { node: field(label, node), read: () => selectValue(node),
        write: (v) => setSelect(node, v), path: (p) => setPath(node, `${p}.${name}`) };
    }
    if (only && only.type === "boolean") {
      const box = el("input", { type: "checkbox", id, "data-key": name });
      box.checked = fallback === true;
      const node = el("div", { className: "check" }, box, el("label", { for: id, text: label }));
      return {
        node,
        read: () => (box.dataset.explicit === "true" || box.checked !== (fallback === true)
          ? box.checked : undefined),
        write: (v) => {
          box.checked = v === undefined || v === null ? fallback === true : v === true;
          box.dataset.explicit = String(v !== undefined && v !== null);
        },
        path: (p) => setPath(box, `${p}.${name}`),
      };
    }
    if (only && only.type === "integer") {
      const input = numberInput(id, { min: only.minimum, max: only.maximum, "data-key": name,
        placeholder: fallback === undefined || fallback === null ? "none" : String(fallback) });
      return { node: field(label, input), read: () => numberValue(input),
        write: (v) => setNumber(input, v), path: (p) => setPath(input, `${p}.${name}`) };
    }
    const constants = options.filter((o) => o.enum || o.const !== undefined)
      .flatMap((o) => (o.enum ? o.enum : [o.const]));
    const keyed = options.filter((o) => o.$ref).map((o) => definition(o.$ref, defs)).filter(Boolean);
    const counts = keyed.length === 1 && Object.values(keyed[0].properties || {})
      .every((p) => p.type === "integer") ? keyed[0].properties : null;
    if (constants.length && keyed.length === 1) return oneKeyControl(name, label, id, constants,
      keyed[0], fallback);
    if (!constants.length && counts) return countsControl(name, label, counts);
    return null;
  }

  /** ``retreat``: a constant (roe, never) or a one-key object ({after_round: N}). */
  function oneKeyControl(name, label, id, constants, def, fallback) {
    const key = Object.keys(def.properties || {})[0];
    const sub = def.properties[key];
    const form = selectOf(id, constants.map((v) => ({ value: v,
      label: v === fallback ? `${v} (default)` : String(v) }))
      .concat([{ value: `{${key}}`, label: `${key.replace(/_/g, " ")}…` }]), { "data-key": name });
    if (fallback !== undefined) form.dataset.default = String(fallback);
    setSelect(form, undefined);
    const amount = numberInput(uid(`${name}-${key}`), { min: sub.minimum, max: sub.maximum,
      "data-key": key });
    const amountField = field(pretty(key), amount);
    const show = () => { amountField.hidden = form.value !== `{${key}}`; };
    form.addEventListener("change", show);
    show();
    return {
      node: el("div", { className: "retreat" }, field(label, form), amountField),
      read: () => {
        if (form.value !== `{${key}}`) return selectValue(form);
        const n = numberValue(amount);
        // the API names a bad one after the union's first member (``retreat.literal[...]``),
        // which has no control: the page says it under the number
        if (!ctx.problem && !(Number.isInteger(n) && n >= (sub.minimum ?? -Infinity)
          && n <= (sub.maximum ?? Infinity))) {
          ctx.problem = [amount.dataset.field, `a whole number from ${sub.minimum} to ${sub.maximum}`];
        }
        return { [key]: n };
      },
      write: (v) => {
        if (v && typeof v === "object") {
          form.value = `{${key}}`;
          form.dataset.explicit = "true";
          setNumber(amount, v[key]);
        } else {
          setSelect(form, v);
        }
        show();
      },
      path: (p) => {
        setPath(form, `${p}.${name}`);
        setPath(amount, `${p}.${name}.${key}`);
      },
    };
  }

  /** Undamaged and crippled counts of one kind (7.5.3: a count, or {undamaged, crippled}). */
  function countsControl(name, label, props) {
    const inputs = {};
    const box = el("fieldset", { className: "counts", "data-key": name },
      el("legend", { text: label }));
    for (const [key, sub] of Object.entries(props)) {
      inputs[key] = numberInput(uid(`${name}-${key}`), { min: sub.minimum, max: sub.maximum,
        placeholder: "0", "data-key": key });
      box.append(field(pretty(key), inputs[key]));
    }
    const keys = Object.keys(props);
    return {
      node: box,
      read: () => {
        const values = Object.fromEntries(keys.map((k) => [k, numberValue(inputs[k])])
          .filter(([, v]) => v !== undefined));
        if (!Object.keys(values).length) return undefined;
        // a plain count is that many undamaged units, as the scenario may write it
        if (box.dataset.form !== "object" && Object.keys(values).length === 1
          && typeof values[keys[0]] === "number") return values[keys[0]];
        return values;
      },
      write: (v) => {
        box.dataset.form = v && typeof v === "object" ? "object" : "count";
        for (const k of keys) {
          setNumber(inputs[k], v && typeof v === "object" ? v[k] : k === keys[0] ? v : undefined);
        }
      },
      path: (p) => {
        setPath(box, `${p}.${name}`);
        for (const k of keys) setPath(inputs[k], `${p}.${name}.${k}`);
      },
    };
  }

  /* ---- the catalogue ------------------------------------------------------------------ */

  function classes() {
    return Object.entries(ctx.cat.cards || {}).map(([code, card]) => Object.assign({ code }, card));
  }

  function classLabel(card) {
    return `${card.code} ${card.name} (AS ${card.attack}, DS ${card.defense}`
      + (card.cr ? `, CR ${card.cr}` : "") + (card.cc ? `, CC ${card.cc}` : "") + ")";
  }

  function flagshipChoices() {
    return classes().filter((c) => c.cr).map((c) => ({ value: c.code, label: classLabel(c) }));
  }

  function escortChoices() {
    return classes().filter((c) => c.kind === "ship").map((c) => ({ value: c.code,
      label: classLabel(c) }));
  }

  function fleetDefs() {
    return (ctx.cat.fleet || {}).definitions || {};
  }

  function fleetFields() {
    return (ctx.cat.fleet || {}).fields || {};
  }

  /** ROE level N from the ROE table, in 7.1.1's words: whom the fleet engages. */
  function roeLabel(level) {
    const rule = (ctx.cat.roe || {})[String(level)] || {};
    const said = rule.rule === "never" ? "avoid all hostile forces"
      : rule.rule === "defenseless" ? "engage only the defenseless"
        : rule.rule === "always" ? "engage regardless of size"
          : rule.rule === "ratio" ? `engage at ${rule.own}:${rule.hostile} or better` : "";
    return `${level}${said ? `: ${said}` : ""}`;
  }

  function orders() {
    return ctx.cat.orders || [];
  }

  /* ---- houses ------------------------------------------------------------------------- */

  function houseRows() {
    return [...$("ec4x-house-list").children];
  }

  function houseNames() {
    return houseRows().map((row) => row.querySelector('[data-key="name"]').value.trim());
  }

  /** Owners, the controller and pairs hold a house's key (``data-house-key``), which stays
   *  the same while its name is typed (a name may be another's for a moment). */
  function nameOf(key) {
    const row = houseRows().find((r) => r.dataset.houseKey === key);
    return row ? row.querySelector('[data-key="name"]').value.trim() : undefined;
  }

  function keyOf(name) {
    const row = houseRows().find((r) => r.querySelector('[data-key="name"]').value.trim() === name);
    return row ? row.dataset.houseKey : undefined;
  }

  /** A select of houses: its house's name (a name the scenario gave that is no house's is
   *  kept as it was, ``raw:``). */
  function ownerValue(node) {
    const value = node.value;
    if (value === "") return undefined;
    return value.startsWith("raw:") ? value.slice(4) : nameOf(value);
  }

  function setOwner(node, name) {
    if (name === undefined || name === null) return;
    const key = keyOf(name);
    if (key) {
      node.value = key;
      return;
    }
    node.append(el("option", { value: `raw:${name}`, text: String(name) }));
    node.value = `raw:${name}`;
  }

  /** A house's colour: the report's (app.js ``houseColour``: by the names' sorted order). */
  function colourOf(name) {
    const colours = ctx.helpers.colours || ["#777"];
    const i = houseNames().slice().sort().indexOf(name);
    return colours[Math.max(0, i) % colours.length];
  }

  function newHouseName() {
    const names = new Set(houseNames());
    const free = NEW_HOUSE_NAMES.find((n) => !names.has(n));
    if (free) return free;
    let i = names.size + 1;
    while (names.has(`house${i}`)) i += 1;
    return `house${i}`;
  }

  function addHouse(name, spec) {
    const nameInput = textInput(uid("house-name"), { value: name, "data-key": "name",
      required: true });
    const swatch = el("span", { className: "swatch", "aria-hidden": "true" });
    const title = el("span", { className: "house-title", text: name });
    const row = el("fieldset", { className: "ec4x-house" }, el("legend", {}, swatch, title));
    const controls = {};
    row.append(field("Name", nameInput));
    const fields = (ctx.cat.policy || {}).fields || {};
    const defs = (ctx.cat.policy || {}).definitions || {};
    const grid = el("div", { className: "ec4x-grid" });
    for (const [key, prop] of Object.entries(fields)) {
      const control = schemaControl(key, prop, defs);
      if (!control) continue;
      controls[key] = control;
      grid.append(control.node);
    }
    row.dataset.houseKey = uid("house");
    row.append(grid, removeButton(`Remove house ${name}`, () => {
      // the house's fleets go with it
      for (const fleet of fleetRows()) {
        if (fleet.parts.owner.value === row.dataset.houseKey) fleet.remove();
      }
      row.remove();
      housesChanged();
      changed();
    }));
    row.controls = controls;
    row.extra = rest(spec, Object.keys(controls));
    for (const [key, control] of Object.entries(controls)) control.write((spec || {})[key]);
    nameInput.addEventListener("input", () => housesChanged());
    $("ec4x-house-list").append(row);
    return row;
  }

  /** The houses by name; a name left empty or given twice is a problem of the form (the
   *  scenario's houses are a mapping: a second house of one name would replace the first). */
  function collectHouses() {
    const houses = {};
    houseRows().forEach((row, i) => {
      const input = row.querySelector('[data-key="name"]');
      const name = input.value.trim();
      const prefix = `houses.${name}`;
      setPath(row, prefix);
      setPath(input, `houses[${i}].name`); // the page's own path: houses are a mapping
      if (!ctx.problem && (name === "" || name in houses)) {
        ctx.problem = [`houses[${i}].name`, name === "" ? "a house needs a name"
          : `${name} is also house ${Object.keys(houses).indexOf(name) + 1}; each house its own name`];
      }
      const house = Object.assign({}, row.extra);
      for (const [key, control] of Object.entries(row.controls)) {
        control.path(prefix);
        put(house, key, control.read());
      }
      houses[name] = house;
    });
    return houses;
  }

  /** After a house is added, removed or renamed: the titles, colours, owners and pairs
   *  follow (they hold the house's key, not its name). */
  function housesChanged() {
    for (const row of houseRows()) {
      const name = row.querySelector('[data-key="name"]').value.trim();
      row.querySelector(".house-title").textContent = name || "(no name)";
      row.querySelector(".swatch").style.background = colourOf(name);
      row.querySelector("button.remove").setAttribute("aria-label", `Remove house ${name}`);
    }
    for (const owner of ctx.root.querySelectorAll("select.ec4x-owner")) fillOwners(owner);
    fillOwners($("ec4x-controller"), "neutral space (no controller)");
    buildDiplomacy();
  }

  /** A select of the houses (values: their keys), keeping its house; a removed house's
   *  select goes to the first house (or to ``none``). */
  function fillOwners(node, none) {
    const before = node.value;
    const rows = houseRows();
    const options = rows.map((row) => el("option", { value: row.dataset.houseKey,
      text: row.querySelector('[data-key="name"]').value.trim() }));
    const raw = before.startsWith("raw:") ? [el("option", { value: before, text: before.slice(4) })]
      : [];
    node.replaceChildren(...(none ? [el("option", { value: "", text: none })] : []), ...options,
      ...raw);
    const kept = raw.length || rows.some((row) => row.dataset.houseKey === before)
      || (none && before === "");
    node.value = kept ? before : none ? "" : (rows[0] ? rows[0].dataset.houseKey : "");
  }

  /* ---- diplomacy (8.1) -------------------------------------------------------------- */

  /** One select a pair of houses: "not listed" (neutral, 8.1's default) or a status. A pair
   *  keeps its place in the scenario's list and its houses' order (``data-houses``: their
   *  keys). */
  function buildDiplomacy() {
    const box = $("ec4x-pairs");
    const keys = houseRows().map((row) => row.dataset.houseKey);
    const before = new Map([...box.children].map((row) => [row.dataset.pair, row]));
    box.replaceChildren();
    const statuses = (((ctx.cat.diplomacy || {}).fields || {}).status || {}).enum || [];
    for (let i = 0; i < keys.length; i += 1) {
      for (let j = i + 1; j < keys.length; j += 1) {
        const pair = JSON.stringify([keys[i], keys[j]].slice().sort());
        let row = before.get(pair);
        if (!row) {
          const status = selectOf(uid("pair"), [{ value: "", label: "neutral (not listed)" }]
            .concat(statuses.map((v) => ({ value: v, label: v.replace(/_/g, " ") }))),
          { "data-key": "status" });
          // a house added is at war with the others: it is added to fight (ruling 25E-1)
          status.value = statuses.includes("enemy") ? "enemy" : "";
          row = el("div", { className: "field pair" }, el("label", { for: status.id }), status);
          ctx.next += 1;
          row.dataset.order = String(1e6 + ctx.next);
          row.dataset.houses = JSON.stringify([keys[i], keys[j]]);
          row.dataset.pair = pair;
        }
        const [a, b] = JSON.parse(row.dataset.houses).map(nameOf);
        row.querySelector("label").replaceChildren(
          el("span", { className: "swatch", style: `background:${colourOf(a)}` }), `${a} – `,
          el("span", { className: "swatch", style: `background:${colourOf(b)}` }), b);
        box.append(row);
      }
    }
    $("ec4x-diplomacy").hidden = keys.length < 2;
  }

  function collectDiplomacy() {
    const rows = [...$("ec4x-pairs").children].filter((row) => row.querySelector("select").value);
    rows.sort((a, b) => Number(a.dataset.order) - Number(b.dataset.order));
    for (const row of $("ec4x-pairs").children) row.querySelector("select").removeAttribute("data-field");
    return rows.map((row, k) => {
      setPath(row.querySelector("select"), `diplomacy[${k}].status`);
      return { houses: JSON.parse(row.dataset.houses).map(nameOf),
        status: row.querySelector("select").value };
    });
  }

  function applyDiplomacy(list) {
    for (const row of $("ec4x-pairs").children) {
      row.querySelector("select").value = "";
      row.dataset.order = String(1e9 + Number(row.dataset.order));
    }
    (list || []).forEach((entry, k) => {
      if (!entry || !Array.isArray(entry.houses)) return;
      const keys = entry.houses.map(keyOf);
      const pair = JSON.stringify(keys.slice().sort());
      const row = [...$("ec4x-pairs").children].find((r) => r.dataset.pair === pair);
      if (!row) return; // not a pair of two houses: the scenario is sent as written (25E-4)
      row.querySelector("select").value = entry.status;
      row.dataset.order = String(k);
      row.dataset.houses = JSON.stringify(keys);
    });
  }

  /* ---- fleets (6.2, 7.1.1, 7.3.1.4) ----------------------------------------------------- */

  function fleetRows() {
    return [...$("ec4x-fleet-list").children];
  }

  function newFleetId(owner) {
    const ids = new Set(fleetRows().map((r) => r.querySelector('[data-key="id"]').value.trim()));
    const letter = (owner || "F").charAt(0).toUpperCase();
    let i = 1;
    while (ids.has(`${letter}${i}`)) i += 1;
    return `${letter}${i}`;
  }

  function addFleet(spec) {
    const row = el("fieldset", { className: "ec4x-fleet" }, el("legend", { text: "Fleet" }));
    const id = textInput(uid("fleet-id"), { "data-key": "id", value: spec.id || "" });
    const owner = selectOf(uid("fleet-owner"), [], { "data-key": "owner", className: "ec4x-owner" });
    fillOwners(owner);
    setOwner(owner, spec.owner);
    const orderProp = fleetFields().order || {};
    const order = selectOf(uid("fleet-order"), orders().map((o) => ({ value: o.code,
      label: `${two(o.code)} ${o.name}${o.code === orderProp.default ? " (default)" : ""}` })),
    { "data-key": "order", "data-type": "integer" });
    if (orderProp.default !== undefined) order.dataset.default = String(orderProp.default);
    const needs = el("p", { className: "help order-needs", id: uid("order-needs") });
    order.setAttribute("aria-describedby", needs.id);
    const target = textInput(uid("fleet-target"), { "data-key": "target",
      placeholder: "none (this system)" });
    const roeProp = fleetFields().roe || {};
    const levels = [];
    for (let level = roeProp.minimum ?? 0; level <= (roeProp.maximum ?? 10); level += 1) {
      levels.push({ value: level, label: roeLabel(level) + (level === roeProp.default ? " (default)" : "") });
    }
    const roe = selectOf(uid("fleet-roe"), levels, { "data-key": "roe", "data-type": "integer" });
    if (roeProp.default !== undefined) roe.dataset.default = String(roeProp.default);
    const showNeeds = () => {
      const o = orders().find((x) => String(x.code) === order.value) || {};
      needs.textContent = `${o.section || ""}${o.needs ? `: needs ${o.needs}` : ""}`
        + (o.here === false ? "; its target may be elsewhere" : "");
    };
    order.addEventListener("change", showNeeds);

    const squadrons = el("div", { className: "squadrons", "data-key": "squadrons" });
    const addSq = el("button", { type: "button", className: "add-squadron", text: "Add a squadron",
      onclick: () => {
        const first = flagshipChoices()[0];
        addSquadron(squadrons, { flagship: first ? first.value : "" });
        changed();
      } });

    // scouts and spacelift (7.2): in a fold, open when the fleet has some
    const scouts = el("div", { className: "scouts", "data-key": "scouts" });
    const addScout = el("button", { type: "button", text: "Add scouts",
      onclick: () => { addScouts(scouts, { eli: 1, count: 1 }); changed(); } });
    const liftKinds = (((fleetFields().spacelift || {}).propertyNames) || {}).enum || [];
    const lift = {};
    const liftBox = el("div", { className: "ec4x-grid" });
    for (const kind of liftKinds) {
      const card = (ctx.cat.cards || {})[kind] || {};
      lift[kind] = numberInput(uid(`lift-${kind}`), { min: 0, placeholder: "0", "data-key": kind });
      liftBox.append(field(`${kind} ${card.name || ""}`.trim(), lift[kind]));
    }
    const loadedProp = schemaOptions(fleetFields().loaded_tt || {})[0] || {};
    const loaded = numberInput(uid("loaded-tt"), { min: loadedProp.minimum, max: loadedProp.maximum,
      placeholder: "all", "data-key": "loaded_tt" });
    liftBox.append(field("Loaded TTs (carrying Marines)", loaded));
    const more = el("details", { className: "more" }, el("summary", { text: "Scouts and spacelift" }),
      el("h4", { text: "Scouts" }), scouts, addScout, el("h4", { text: "Spacelift" }), liftBox);

    row.append(
      el("div", { className: "ec4x-grid" }, field("Fleet id", id), field("Owner", owner),
        field("ROE (7.1.1)", roe)),
      el("div", { className: "ec4x-grid" }, el("div", { className: "field order" },
        el("label", { for: order.id, text: "Order (6.2)" }), order, needs),
      field("Order's target", target)),
      el("h4", { text: "Squadrons" }), squadrons, addSq, more,
      removeButton("Remove this fleet", () => { row.remove(); changed(); }));
    row.parts = { id, owner, order, target, roe, squadrons, scouts, lift, loaded, more };
    row.extra = rest(spec, ["id", "owner", "order", "roe", "squadrons", "scouts", "spacelift",
      "loaded_tt"]);
    // the order: a code, or {code, target, via}; what the form does not show is kept
    const orderSpec = spec.order;
    if (orderSpec && typeof orderSpec === "object") {
      setSelect(order, orderSpec.code);
      order.dataset.explicit = "true";
      target.value = orderSpec.target ?? "";
      row.orderExtra = rest(orderSpec, ["code", "target"]);
      row.orderForm = "object";
    } else {
      setSelect(order, orderSpec);
      row.orderExtra = {};
      row.orderForm = "code";
    }
    setSelect(roe, spec.roe);
    for (const squadron of spec.squadrons || []) addSquadron(squadrons, squadron);
    for (const scout of spec.scouts || []) addScouts(scouts, scout);
    row.liftExtra = rest(spec.spacelift, liftKinds);
    for (const kind of liftKinds) setNumber(lift[kind], (spec.spacelift || {})[kind]);
    row.liftGiven = spec.spacelift !== undefined;
    setNumber(loaded, spec.loaded_tt);
    more.open = (spec.scouts || []).length > 0 || Object.keys(spec.spacelift || {}).length > 0;
    showNeeds();
    $("ec4x-fleet-list").append(row);
    return row;
  }

  function collectFleet(row, f) {
    const p = row.parts;
    const at = `fleets[${f}]`;
    setPath(row, at);
    const fleet = Object.assign({}, row.extra);
    setPath(p.id, `${at}.id`);
    fleet.id = p.id.value.trim();
    setPath(p.owner, `${at}.owner`);
    fleet.owner = ownerValue(p.owner) ?? "";
    // the legend: the fleet in its house's colour
    row.querySelector("legend").replaceChildren(el("span", { className: "swatch",
      "aria-hidden": "true", style: `background:${colourOf(fleet.owner)}` }),
    `Fleet ${f + 1}: ${fleet.id || "?"} (${fleet.owner || "no house"})`);
    setPath(p.order, `${at}.order`);
    setPath(p.target, `${at}.order.target`);
    const code = selectValue(p.order);
    const target = p.target.value.trim();
    if (target || row.orderForm === "object" || Object.keys(row.orderExtra).length) {
      fleet.order = Object.assign({ code: Number(p.order.value) }, row.orderExtra);
      if (target) fleet.order.target = target;
    } else {
      put(fleet, "order", code);
    }
    setPath(p.roe, `${at}.roe`);
    put(fleet, "roe", selectValue(p.roe));
    setPath(p.squadrons, `${at}.squadrons`);
    const squadrons = items(p.squadrons, "ec4x-squadron").map((sq, q) => collectSquadron(sq, `${at}.squadrons[${q}]`));
    if (squadrons.length) fleet.squadrons = squadrons;
    setPath(p.scouts, `${at}.scouts`);
    const scouts = items(p.scouts, "scout").map((sc, k) => {
      const out = Object.assign({}, sc.extra);
      setPath(sc, `${at}.scouts[${k}]`);
      setPath(sc.parts.eli, `${at}.scouts[${k}].eli`);
      setPath(sc.parts.count, `${at}.scouts[${k}].count`);
      out.eli = Number(sc.parts.eli.value);
      put(out, "count", numberValue(sc.parts.count));
      return out;
    });
    if (scouts.length) fleet.scouts = scouts;
    const lift = Object.assign({}, row.liftExtra);
    for (const [kind, input] of Object.entries(p.lift)) {
      setPath(input, `${at}.spacelift.${kind}`);
      put(lift, kind, numberValue(input));
    }
    if (Object.keys(lift).length || row.liftGiven) fleet.spacelift = lift;
    setPath(p.loaded, `${at}.loaded_tt`);
    put(fleet, "loaded_tt", numberValue(p.loaded));
    return fleet;
  }

  function addSquadron(list, spec) {
    const row = el("div", { className: "ec4x-squadron" });
    const flagship = selectOf(uid("flagship"), flagshipChoices(), { "data-key": "flagship" });
    if (spec.flagship !== undefined) flagship.value = spec.flagship;
    const defs = fleetDefs().SquadronSpec || { properties: {} };
    const props = defs.properties || {};
    const state = schemaControl("state", props.state || { enum: ["undamaged"] }, {}, "State");
    const fighters = schemaControl("fighters", props.fighters || { type: "integer" }, {},
      "Fighters carried");
    const clk = schemaControl("clk", props.clk || { type: "integer" }, {}, "CLK (raiders)");
    const escorts = el("div", { className: "escorts", "data-key": "escorts" });
    const addEscort = el("button", { type: "button", text: "Add escorts",
      onclick: () => {
        const first = escortChoices()[0];
        addEscortRow(row, escorts, first ? first.value : "", 1);
        changed();
      } });
    row.append(
      el("div", { className: "ec4x-grid" }, field("Flagship", flagship), state.node),
      el("div", { className: "escort-box" }, el("span", { className: "escort-title", text: "Escorts" }),
        escorts, addEscort),
      el("div", { className: "ec4x-grid" }, fighters.node, clk.node),
      removeButton("Remove this squadron", () => { row.remove(); changed(); }));
    row.parts = { flagship, state, fighters, clk, escorts };
    row.extra = rest(spec, ["flagship", "escorts", "state", "fighters", "clk"]);
    row.escortsGiven = spec.escorts !== undefined;
    for (const [code, n] of Object.entries(spec.escorts || {})) addEscortRow(row, escorts, code, n);
    state.write(spec.state);
    fighters.write(spec.fighters);
    clk.write(spec.clk);
    list.append(row);
    return row;
  }

  function addEscortRow(squadron, list, code, count) {
    const kind = selectOf(uid("escort"), escortChoices(), { "data-key": "class" });
    kind.value = code;
    if (kind.value !== code) kind.append(el("option", { value: code, text: code }));
    kind.value = code;
    const n = numberInput(uid("escort-count"), { min: 0, value: count ?? "", "data-key": "count" });
    const row = el("div", { className: "escort" }, field("Count", n), field("Escort class", kind),
      removeButton("Remove these escorts", () => { row.remove(); changed(); }));
    list.append(row);
  }

  function collectSquadron(row, at) {
    const p = row.parts;
    setPath(row, at);
    const out = Object.assign({}, row.extra);
    setPath(p.flagship, `${at}.flagship`);
    out.flagship = p.flagship.value;
    setPath(p.escorts, `${at}.escorts`);
    const escorts = {};
    for (const line of items(p.escorts, "escort")) {
      const code = line.querySelector('[data-key="class"]').value;
      const input = line.querySelector('[data-key="count"]');
      setPath(input, `${at}.escorts.${code}`);
      const n = numberValue(input);
      if (n === undefined) continue;
      escorts[code] = typeof escorts[code] === "number" && typeof n === "number" ? escorts[code] + n : n;
    }
    if (Object.keys(escorts).length || row.escortsGiven) out.escorts = escorts;
    for (const key of ["state", "fighters", "clk"]) {
      p[key].path(at);
      put(out, key, p[key].read());
    }
    return out;
  }

  function addScouts(list, spec) {
    const props = (fleetDefs().ScoutSpec || {}).properties || {};
    const eliProp = props.eli || { minimum: 1, maximum: 5 };
    const levels = [];
    for (let l = eliProp.minimum ?? 1; l <= (eliProp.maximum ?? 5); l += 1) {
      levels.push({ value: l, label: `ELI ${l}` });
    }
    const eli = selectOf(uid("scout-eli"), levels, { "data-key": "eli" });
    eli.value = String(spec.eli ?? eliProp.minimum ?? 1);
    const count = numberInput(uid("scout-count"), { min: (props.count || {}).minimum,
      max: (props.count || {}).maximum, placeholder: "1", "data-key": "count" });
    setNumber(count, spec.count);
    const row = el("div", { className: "ec4x-grid scout" }, field("Scouts", count),
      field("ELI level", eli), removeButton("Remove these scouts", () => { row.remove(); changed(); }));
    row.parts = { eli, count };
    row.extra = rest(spec, ["eli", "count"]);
    list.append(row);
  }

  /* ---- the colony (2.4.1, 7.4-7.6) ---------------------------------------------------- */

  function buildColony(box) {
    const on = el("input", { type: "checkbox", id: "ec4x-colony-on", "data-field": "colony" });
    const owner = selectOf("ec4x-colony-owner", [], { className: "ec4x-owner", "data-key": "owner" });
    const fields = (ctx.cat.colony || {}).fields || {};
    const defs = (ctx.cat.colony || {}).definitions || {};
    const controls = {};
    const grid = el("div", { className: "ec4x-grid" }, field("Owner (controls the system, 8.1.5)", owner));
    const ground = el("div", { className: "ec4x-grid" });
    for (const [key, prop] of Object.entries(fields)) {
      if (key === "owner" || key === "starbases") continue;
      const control = schemaControl(key, prop, defs);
      if (!control) continue;
      controls[key] = control;
      (control.node.tagName === "FIELDSET" ? ground : grid).append(control.node);
    }
    const starbases = el("div", { className: "starbases", "data-key": "starbases" });
    const addStarbase = el("button", { type: "button", id: "ec4x-add-starbase", text: "Add a starbase",
      onclick: () => { addStarbaseRow({}); changed(); } });
    const body = el("div", { id: "ec4x-colony-body" }, grid, ground, el("h4", { text: "Starbases" }),
      starbases, addStarbase);
    box.append(el("div", { className: "check" }, on,
      el("label", { for: on.id, text: "A colony in this system (its owner controls the system)" })),
    body);
    const show = () => { body.hidden = !on.checked; };
    on.addEventListener("change", () => {
      show();
      if (on.checked) {
        if ($("ec4x-controller").value) owner.value = $("ec4x-controller").value;
        $("ec4x-controller").value = owner.value;
      }
    });
    // 8.1.5: the colony's owner controls the system
    owner.addEventListener("change", () => { $("ec4x-controller").value = owner.value; });
    ctx.colony = { on, owner, controls, starbases, show };
    show();
  }

  function addStarbaseRow(spec) {
    const def = ((ctx.cat.colony || {}).definitions || {}).StarbaseSpec || { properties: {} };
    const row = el("div", { className: "ec4x-grid starbase" });
    const controls = {};
    for (const [key, prop] of Object.entries(def.properties || {})) {
      const control = schemaControl(key, prop, {}, key === "eli" ? "ELI level" : undefined);
      if (!control) continue;
      controls[key] = control;
      row.append(control.node);
      control.write(spec[key]);
    }
    row.append(removeButton("Remove this starbase", () => { row.remove(); changed(); }));
    row.controls = controls;
    row.extra = rest(spec, Object.keys(controls));
    ctx.colony.starbases.append(row);
  }

  function collectColony() {
    const c = ctx.colony;
    if (!c.on.checked) return undefined;
    const out = Object.assign({}, c.extra || {});
    setPath(c.owner, "colony.owner");
    out.owner = ownerValue(c.owner) ?? "";
    for (const [key, control] of Object.entries(c.controls)) {
      control.path("colony");
      put(out, key, control.read());
    }
    setPath(c.starbases, "colony.starbases");
    const bases = items(c.starbases, "starbase").map((row, k) => {
      const base = Object.assign({}, row.extra);
      for (const [key, control] of Object.entries(row.controls)) {
        control.path(`colony.starbases[${k}]`);
        put(base, key, control.read());
      }
      return base;
    });
    if (bases.length || c.starbasesGiven) out.starbases = bases;
    return out;
  }

  function applyColony(spec) {
    const c = ctx.colony;
    c.on.checked = !!spec;
    c.starbases.replaceChildren();
    spec = spec || {};
    setOwner(c.owner, spec.owner);
    c.extra = rest(spec, ["owner", "starbases", ...Object.keys(c.controls)]);
    for (const [key, control] of Object.entries(c.controls)) control.write(spec[key]);
    c.starbasesGiven = spec.starbases !== undefined;
    for (const base of spec.starbases || []) addStarbaseRow(base || {});
    c.show();
  }

  /* ---- rule options ------------------------------------------------------------------- */

  function buildOptions(box) {
    const fields = (ctx.cat.options || {}).fields || {};
    const controls = {};
    const grid = el("div", { className: "ec4x-grid options" });
    for (const [key, prop] of Object.entries(fields)) {
      const control = schemaControl(key, prop, (ctx.cat.options || {}).definitions, key);
      if (!control) continue;
      controls[key] = control;
      grid.append(control.node);
    }
    box.append(el("details", { className: "more", id: "ec4x-options" },
      el("summary", {}, "Rule options (docs/rulings.md) ", el("span", { className: "count-badge",
        id: "ec4x-option-count" })), grid));
    ctx.options = controls;
  }

  function collectOptions() {
    const out = Object.assign({}, ctx.extra.options);
    for (const [key, control] of Object.entries(ctx.options)) {
      control.path("options");
      put(out, key, control.read());
    }
    const badge = $("ec4x-option-count");
    const n = Object.keys(out).length;
    if (badge) badge.textContent = n ? `(${n} set)` : "";
    return Object.keys(out).length || ctx.extra.optionsGiven ? out : undefined;
  }

  /* ---- the whole form ----------------------------------------------------------------- */

  function build(container, catalogue, helpers) {
    ctx.helpers = helpers || {};
    if (ctx.root === container && ctx.cat === catalogue) return;
    ctx.cat = catalogue;
    ctx.root = container;
    const game = el("fieldset", { className: "panel", id: "ec4x-game" },
      el("legend", { text: "System and game" }),
      el("div", { className: "ec4x-grid" },
        field("System", textInput("ec4x-system-name", { "data-field": "system.name" })),
        field("Controller (8.1.5)", selectOf("ec4x-controller", [],
          { "data-field": "system.controller" })),
        field("Game id", textInput("ec4x-game-id", { "data-field": "game_id" })),
        field("Turn", numberInput("ec4x-turn", { min: 0, "data-field": "turn" })),
        field("Seed (else from game id and turn, 7.3.2.5)", textInput("ec4x-seed",
          { "data-field": "scenario.seed", inputmode: "numeric",
            placeholder: "from game id and turn" }))));
    const houses = el("fieldset", { className: "panel", id: "ec4x-houses", "data-field": "houses" },
      el("legend", { text: "Houses" }), el("div", { id: "ec4x-house-list", className: "ec4x-list" }),
      el("button", { type: "button", id: "ec4x-add-house", text: "Add a house",
        onclick: () => {
          addHouse(newHouseName(), {});
          housesChanged();
          changed();
        } }),
      el("div", { id: "ec4x-diplomacy", "data-field": "diplomacy" },
        el("h3", { text: "Diplomacy (8.1)" }),
        el("div", { id: "ec4x-pairs", className: "ec4x-grid" })));
    const fleets = el("fieldset", { className: "panel", id: "ec4x-fleets", "data-field": "fleets" },
      el("legend", { text: "Fleets" }), el("div", { id: "ec4x-fleet-list", className: "ec4x-list" }),
      el("button", { type: "button", id: "ec4x-add-fleet", text: "Add a fleet",
        onclick: () => {
          const owner = houseNames()[0];
          const first = flagshipChoices()[0];
          addFleet({ id: newFleetId(owner), owner: owner || undefined,
            squadrons: first ? [{ flagship: first.value }] : [] });
          changed();
        } }));
    const colony = el("fieldset", { className: "panel", id: "ec4x-colony" },
      el("legend", { text: "Colony" }));
    const rules = el("fieldset", { className: "panel", id: "ec4x-rules", "data-field": "options" },
      el("legend", { text: "Rule options" }));
    const form = el("div", { id: "ec4x-form" }, game, houses, fleets, colony, rules);
    const toggle = el("div", { className: "check json-toggle" },
      el("input", { type: "checkbox", id: "ec4x-json-toggle", "aria-controls": "json-editor" }),
      el("label", { for: "ec4x-json-toggle", text: "Edit as JSON (advanced)" }));
    const note = el("p", { id: "ec4x-json-note", className: "help", hidden: true });
    const json = $("json-editor"); // index.html's, kept: the JSON view
    container.replaceChildren(form, toggle, note, json);
    buildColony(colony);
    buildOptions(rules);
    $("ec4x-json-toggle").addEventListener("change", () => {
      $("json-editor").hidden = !$("ec4x-json-toggle").checked;
    });
    $("json-editor").hidden = true;
    $("scenario-json-help").textContent = "The scenario in the format of docs/ec4x.md. Editing it "
      + "fills the form; what the form cannot show is sent as written.";
    form.addEventListener("input", formEdited);
    form.addEventListener("change", formEdited);
    $("scenario-json").addEventListener("input", jsonEdited);
    applyToForm(example());
    showJson(fromForm());
  }

  /** The form was edited: it is the source again, and the JSON view shows it. */
  function formEdited() {
    ctx.source = "form";
    ctx.jsonError = null;
    showJson(fromForm());
  }

  /** Something was added or removed: the JSON follows, and the page hears a change. */
  function changed() {
    formEdited();
    ctx.root.dispatchEvent(new Event("change", { bubbles: true }));
  }

  /** The JSON view was edited: fill the form from it; the scenario is the JSON as written. */
  function jsonEdited() {
    const text = $("scenario-json").value;
    ctx.source = "json";
    try {
      const scenario = parseJson(text);
      ctx.parsed = scenario;
      ctx.jsonError = null;
      if (scenario && typeof scenario === "object" && !Array.isArray(scenario)) applyToForm(scenario);
    } catch (error) {
      ctx.parsed = null;
      ctx.jsonError = error.message;
    }
    noteSource();
  }

  function showJson(scenario) {
    $("scenario-json").value = scenarioText(scenario, 2);
    noteSource();
  }

  function noteSource() {
    const note = $("ec4x-json-note");
    const differs = ctx.source === "json" && ctx.parsed
      && canonical(ctx.parsed) !== canonical(fromForm());
    note.hidden = !differs;
    note.textContent = differs ? "The JSON holds what the form does not show: it is sent as "
      + "written (the JSON view) until the form is edited." : "";
  }

  /** A starting scenario: two houses at war, one squadron each. */
  function example() {
    const [first, second] = Object.entries(ctx.cat.cards || {})
      .filter(([, c]) => c.cr && c.attack !== 0).map(([code]) => code);
    return {
      ruleset: "ec4x",
      game_id: "calculator",
      turn: 1,
      system: { name: "Vega" },
      houses: { alpha: { prestige: 50 }, beta: { prestige: 50 } },
      diplomacy: [{ houses: ["alpha", "beta"], status: "enemy" }],
      fleets: [
        { id: "A1", owner: "alpha", order: 1, roe: 8, squadrons: [{ flagship: first, escorts: {} }] },
        { id: "B1", owner: "beta", order: 3, roe: 8,
          squadrons: [{ flagship: second || first, escorts: {} }] },
      ],
    };
  }

  function applyToForm(scenario) {
    const s = scenario || {};
    ctx.extra.top = rest(s, ["ruleset", "game_id", "turn", "seed", "system", "houses", "diplomacy",
      "colony", "fleets", "options"]);
    const system = s.system && typeof s.system === "object" ? s.system : {};
    ctx.extra.system = rest(system, ["name", "controller"]);
    $("ec4x-system-name").value = system.name ?? "";
    $("ec4x-game-id").value = s.game_id ?? "";
    setNumber($("ec4x-turn"), s.turn);
    $("ec4x-seed").value = s.seed === undefined || s.seed === null ? "" : String(s.seed);
    $("ec4x-house-list").replaceChildren();
    $("ec4x-pairs").replaceChildren();
    const houses = s.houses && typeof s.houses === "object" ? s.houses : {};
    for (const [name, spec] of Object.entries(houses)) addHouse(name, spec || {});
    housesChanged();
    $("ec4x-controller").value = "";
    setOwner($("ec4x-controller"), system.controller);
    applyDiplomacy(Array.isArray(s.diplomacy) ? s.diplomacy : []);
    ctx.extra.diplomacyGiven = s.diplomacy !== undefined;
    $("ec4x-fleet-list").replaceChildren();
    for (const fleet of Array.isArray(s.fleets) ? s.fleets : []) addFleet(fleet || {});
    applyColony(s.colony && typeof s.colony === "object" ? s.colony : null);
    const options = s.options && typeof s.options === "object" ? s.options : {};
    ctx.extra.options = rest(options, Object.keys(ctx.options));
    ctx.extra.optionsGiven = s.options !== undefined;
    for (const [key, control] of Object.entries(ctx.options)) control.write(options[key]);
    housesChanged();
    fromForm(); // every control's field path
  }

  /** The scenario the form shows. */
  function fromForm() {
    ctx.problem = null;
    const s = Object.assign({}, ctx.extra.top);
    s.ruleset = "ec4x";
    s.game_id = $("ec4x-game-id").value.trim();
    put(s, "turn", numberValue($("ec4x-turn")));
    const seed = $("ec4x-seed").value.trim();
    // the scenario's seed is checked here: the API names it "seed", as the request's own seed
    // (the Seed of the Monte Carlo method), which the page shows above
    const most = ctx.cat.max_seed;
    if (seed !== "" && !(/^\d+$/.test(seed) && (!most || BigInt(seed) <= BigInt(most)))) {
      ctx.problem = ["scenario.seed", `a whole number from 0 to ${most || "2^64 - 1"}`];
    }
    if (seed !== "") {
      // a 64-bit seed stays its digits (a JavaScript number holds 53 bits): sent as typed
      s.seed = /^\d+$/.test(seed) ? (Number.isSafeInteger(Number(seed)) ? Number(seed)
        : seed.replace(/^0+(?=\d)/, "")) : seed;
    }
    const system = Object.assign({}, ctx.extra.system, { name: $("ec4x-system-name").value.trim() });
    put(system, "controller", ownerValue($("ec4x-controller")));
    s.system = system;
    s.houses = collectHouses();
    const diplomacy = collectDiplomacy();
    if (diplomacy.length || ctx.extra.diplomacyGiven) s.diplomacy = diplomacy;
    put(s, "colony", collectColony());
    s.fleets = fleetRows().map((row, f) => collectFleet(row, f));
    put(s, "options", collectOptions());
    return s;
  }

  /* ---- app.js's interface ------------------------------------------------------------- */

  function apply(scenario) {
    applyToForm(scenario);
    const given = canonical(scenario);
    // a scenario the form does not give back key for key is kept as it is (the JSON view)
    ctx.source = canonical(fromForm()) === given ? "form" : "json";
    ctx.parsed = ctx.source === "json" ? scenario : null;
    ctx.jsonError = null;
    $("scenario-json").value = scenarioText(scenario, 2);
    noteSource();
  }

  function collect() {
    if (ctx.source === "json") {
      if (ctx.jsonError !== null || !ctx.parsed) {
        const problem = `not valid JSON: ${ctx.jsonError || "no scenario"}`;
        throw ctx.helpers.fieldError ? ctx.helpers.fieldError("scenario", problem) : new Error(problem);
      }
      fromForm(); // the field paths
      return ctx.parsed;
    }
    const scenario = fromForm();
    if (ctx.problem) {
      const [path, message] = ctx.problem;
      throw ctx.helpers.fieldError ? ctx.helpers.fieldError(path, message) : new Error(message);
    }
    return scenario;
  }

  function text() {
    if (ctx.source === "json") {
      collect(); // says why the JSON does not parse
      return $("scenario-json").value;
    }
    return scenarioText(collect());
  }

  window.spacecombatEc4x = { build, apply, collect, text, source: () => ctx.source };
})();
