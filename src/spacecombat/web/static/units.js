/* spacecombat: the unit rows, the quick controls and the pickers of the calculator page
 * (issue 25, items 3 and 5; docs/rulings.md 25U-1 to 25U-5).
 *
 * - Each unit row shows the card the side plays with: its faction's unit (Exotrireme I for
 *   Sardakk N'orr's dreadnought), its upgrade when the row's "II" is ticked (Exotrireme II),
 *   and the card's combat values and abilities. Which card a side plays comes from the
 *   catalogue's ``unit_cards`` (by faction and upgrade, read by the engine's own set-up); the
 *   values from its ``cards``. Nothing here lists units.
 * - Quick controls: swap sides, reset to the ruleset's default battle, the battle kind as
 *   buttons (the tactical action: space combat, then the planets), +/- steppers on the unit
 *   counts (at most the catalogue's ``most``).
 * - The technologies and the cards held as searchable pickers: type to filter, Enter to pick
 *   the first match, chips for the chosen ones; other factions' technologies, promissory
 *   notes of one's own faction and other factions' leaders are hidden (25U-3). The unit
 *   upgrades are in the technology picker too, ticking the row's "II".
 *
 * The form itself (its controls, what a scenario is made of) is app.js's: this script changes
 * the form's controls only as a player would, and says so with the events a player's edit
 * fires (``input`` and ``change``, bubbling to the form), so the page recomputes as after any
 * edit. app.js tells it when the form is built or filled ("spacecombat:form" events) and lends
 * it ``window.spacecombatPage`` (catalogue, collectScenario, applyScenario, defaultScenario).
 */
"use strict";

(function () {
  const SIDES = ["attacker", "defender"];
  /** How the battle kinds read on their buttons (the catalogue's ``battles`` says which). */
  const BATTLE_WORDS = {
    space: "Space combat",
    invasion: "Invasion",
    tactical: "Tactical action: space, then planets",
  };

  const $ = (id) => document.getElementById(id);
  const P = () => window.spacecombatPage;

  const { el } = window.spacecombatDom; // dom.js

  /** Fire the events a player's edit of ``node`` fires (the page recomputes on them). */
  function edited(node) {
    node.dispatchEvent(new Event("input", { bubbles: true }));
    node.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function tabular() {
    return !!$("ti-editor") && !$("ti-editor").hidden && !!$("attacker-faction");
  }

  /* ---- the card a row plays --------------------------------------------------------- */

  function factionOf(side) {
    const choice = $(`${side}-faction`);
    return choice ? choice.value : "";
  }

  function upgraded(side, unit) {
    const box = $(`${side}-upgrade-${unit}`);
    return !!(box && box.checked);
  }

  /** The card id a side plays for a unit type (``null``: it has none, the flagship of no
   *  faction), by the catalogue's ``unit_cards`` (docs/rulings.md 25U-1). */
  function cardIdOf(side, unit, upgrade) {
    const cat = P().catalogue();
    const table = cat.unit_cards || {};
    const faction = factionOf(side);
    const own = (table[faction] || table[""] || {})[unit];
    if (!own) return table[faction] || table[""] ? null : unit;
    const up = upgrade === undefined ? upgraded(side, unit) : upgrade;
    return up ? own.upgraded : own.base;
  }

  function cardOf(side, unit, upgrade) {
    const id = cardIdOf(side, unit, upgrade);
    const card = id === null ? null : (P().catalogue().cards || {})[id];
    return card ? Object.assign({ id }, card) : null;
  }

  /** A card's name as a row shows it (without a data note in brackets). */
  function cardName(card, unit) {
    if (!card) return P().pretty(unit);
    return card.name.replace(/\s+\(.*\)$/, "");
  }

  function roll(value) {
    if (!value) return "";
    const dice = value.dice === undefined ? " (dice: see its ability)"
      : value.dice > 1 ? ` ×${value.dice}` : "";
    return `${value.hit}${dice}`;
  }

  /** A card's combat values: [stat key, text], in the order of a unit card. */
  function cardValues(card) {
    const values = [];
    if (card.combat) values.push(["combat", `combat ${roll(card.combat)}`]);
    if (card.sustain_damage) values.push(["sustain_damage", "sustain damage"]);
    if (card.capacity && (card.is_ship || card.capacity > 0)) {
      values.push(["capacity", `capacity ${card.capacity}`]);
    }
    if (card.anti_fighter_barrage) {
      values.push(["anti_fighter_barrage", `anti-fighter barrage ${roll(card.anti_fighter_barrage)}`]);
    }
    if (card.bombardment) values.push(["bombardment", `bombardment ${roll(card.bombardment)}`]);
    if (card.space_cannon) {
      values.push(["space_cannon", `space cannon ${roll(card.space_cannon)}`
        + (card.space_cannon.range ? ` (range ${card.space_cannon.range})` : "")]);
    }
    if (card.planetary_shield) values.push(["planetary_shield", "planetary shield"]);
    return values;
  }

  /** Show, in a unit row, the card the side plays: its name, values and (a faction's own
   *  card, a flagship, a mech) its abilities. */
  function showRow(side, unit) {
    const count = $(`${side}-units-${unit}`);
    if (!count) return;
    const row = count.closest("tr");
    const card = cardOf(side, unit);
    row.id = `${side}-row-${unit}`;
    row.dataset.unitRow = unit;
    row.dataset.card = card ? card.id : "";
    const label = row.querySelector("th label");
    if (label) {
      const hidden = label.querySelector(".sr-only");
      label.replaceChildren(...(hidden ? [hidden] : []),
        el("span", { className: "unit-name", text: cardName(card, unit) }));
    }
    const summary = row.querySelector("th .card");
    if (summary) {
      summary.replaceChildren();
      if (!card) {
        summary.append(el("span", { className: "needs", text: "needs a faction" }));
      } else {
        const values = cardValues(card);
        values.forEach(([key, text], i) => {
          summary.append(el("span", { className: "stat", dataset: { stat: key }, text }));
          if (i < values.length - 1) summary.append(", ");
        });
        if (card.implemented === false) {
          summary.append(el("span", { className: "needs", text: " (not implemented yet)" }));
        }
      }
    }
    let abilities = row.querySelector("th .abilities");
    const shown = card && card.faction ? (card.abilities || []).filter((a) => a.text) : [];
    if (shown.length) {
      if (!abilities) {
        abilities = el("ul", { className: "abilities" });
        row.querySelector("th").append(abilities);
      }
      abilities.replaceChildren(...shown.map((a) => el("li", {
        text: (a.name ? `${a.name}: ` : "") + a.text })));
    } else if (abilities) {
      abilities.remove();
    }
    // titles for the cards the rows do not spell out (generic units' printed abilities)
    row.querySelector("th").title = card && !card.faction
      ? (card.abilities || []).map((a) => a.text).join(" ") : "";
    const damaged = $(`${side}-damaged-${unit}`);
    if (damaged) {
      damaged.setAttribute("aria-label",
        `${P().pretty(side)}: damaged ${cardName(card, unit)} (sustain damage used)`);
    }
    const box = $(`${side}-upgrade-${unit}`);
    if (box) {
      const up = cardOf(side, unit, true);
      box.setAttribute("aria-label", `${P().pretty(side)}: ${cardName(up, unit)} (upgraded)`);
      box.title = cardName(up, unit);
    }
    const proxy = $(`${side}-tech-upgrade-${unit}`);
    if (proxy) {
      proxy.checked = upgraded(side, unit);
      const proxyLabel = proxy.parentElement.querySelector("label");
      if (proxyLabel) proxyLabel.textContent = `${cardName(cardOf(side, unit, true), unit)} (unit upgrade)`;
    }
  }

  function showRows(side) {
    for (const unit of P().catalogue().units || []) showRow(side, unit);
    showFaction(side);
  }

  /** The faction's own abilities, under its choice (TI4 and TI3). */
  function showFaction(side) {
    const choice = $(`${side}-faction`);
    if (!choice) return;
    const holder = choice.closest(".field");
    let note = $(`${side}-faction-abilities`);
    const faction = (P().catalogue().factions || {})[choice.value];
    const abilities = faction ? (faction.abilities || []).filter((a) => a.text) : [];
    if (!abilities.length) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = el("ul", { id: `${side}-faction-abilities`, className: "abilities faction-abilities" });
      holder.after(note);
    }
    note.replaceChildren(...abilities.map((a) => el("li", {
      text: (a.name ? `${a.name}: ` : "") + a.text })));
  }

  /* ---- steppers ----------------------------------------------------------------------- */

  /** The most units of a type a side may field: the catalogue's ``most`` (a side's limit, and
   *  a type's own, the flagship's 1). */
  function mostOf(unit) {
    const most = P().catalogue().most || {};
    const perType = (most.per_type || {})[unit];
    const perSide = most.per_side;
    return [perType, perSide].filter((n) => typeof n === "number").reduce(
      (a, b) => Math.min(a, b), Infinity);
  }

  function addSteppers(side) {
    for (const unit of P().catalogue().units || []) {
      const input = $(`${side}-units-${unit}`);
      if (!input || input.closest(".stepper")) continue;
      const most = mostOf(unit);
      if (Number.isFinite(most)) input.max = String(most);
      const name = () => input.closest("tr").querySelector(".unit-name")?.textContent
        || P().pretty(unit);
      const step = (delta) => () => {
        const now = Number(input.value.trim() === "" ? 0 : input.value);
        const base = Number.isFinite(now) ? Math.round(now) : 0;
        const next = Math.max(0, Math.min(base + delta, Number.isFinite(most) ? most : Infinity));
        input.value = next === 0 ? "" : String(next);
        edited(input);
      };
      const minus = el("button", { type: "button", className: "step minus", id: `${side}-less-${unit}`,
        text: "−", onclick: step(-1) });
      const plus = el("button", { type: "button", className: "step plus", id: `${side}-more-${unit}`,
        text: "+", onclick: step(1) });
      const wrap = el("div", { className: "stepper" });
      input.replaceWith(wrap);
      wrap.append(minus, input, plus);
      const label = () => {
        minus.setAttribute("aria-label", `${P().pretty(side)}: one ${name()} fewer`);
        plus.setAttribute("aria-label", `${P().pretty(side)}: one ${name()} more`);
      };
      label();
      input.addEventListener("input", () => limits(input, minus, plus, most));
      wrap.relabel = label;
      limits(input, minus, plus, most);
    }
  }

  /** A stepper's buttons: "-" down to 0, "+" up to the most, and not for a unit the side has
   *  no card of (the flagship of no faction). */
  function limits(input, minus, plus, most) {
    const n = Number(input.value.trim() === "" ? 0 : input.value);
    const row = input.closest("tr");
    minus.disabled = !(n > 0);
    plus.disabled = (Number.isFinite(most) && n >= most) || (!!row && row.dataset.card === "");
  }

  function refreshSteppers(side) {
    for (const wrap of document.querySelectorAll(`#side-${side} .stepper`)) {
      const input = wrap.querySelector("input");
      limits(input, wrap.querySelector(".minus"), wrap.querySelector(".plus"),
        mostOf(input.dataset.unit));
      if (wrap.relabel) wrap.relabel();
    }
  }

  /* ---- pickers -------------------------------------------------------------------------- */

  /** Whether a side of ``faction`` may hold a technology or card (docs/rulings.md 25U-3): with
   *  no faction chosen, everything; else a faction technology of its own faction, a
   *  promissory note of another faction, a leader of its own faction or another faction's
   *  commander (shared by the Alliance note); general ones always. */
  function mayHold(record, faction) {
    if (!faction || !record || !record.faction) return true;
    if (record.kind === "promissory_note") return record.faction !== faction;
    if (record.kind === "leader") return record.faction === faction || record.leader === "commander";
    return record.faction === faction;
  }

  function recordOf(box) {
    const cat = P().catalogue();
    if (box.dataset.tech) return (cat.technologies || {})[box.dataset.tech];
    if (box.dataset.card) return (cat.held_cards || {})[box.dataset.card];
    return null;
  }

  /** Turn a folded list of checkboxes (technologies; cards, leaders and conditions) into a
   *  picker: a search field and the chosen ones as chips, before the fold. */
  function addPicker(side, details, key, what) {
    if (!details || details.previousElementSibling?.classList.contains("picker")) return;
    const id = `${side}-${key}-search`;
    const search = el("input", { type: "search", id, autocomplete: "off", className: "picker-search",
      placeholder: `Type to find ${what}`, "aria-describedby": `${side}-${key}-chips` });
    const chips = el("ul", { className: "chips", id: `${side}-${key}-chips`,
      "aria-label": `${P().pretty(side)}: chosen ${what}`, "aria-live": "polite" });
    const picker = el("div", { className: "picker", id: `${side}-${key}-picker`,
      dataset: { picker: key } },
    el("label", { for: id, text: `${pretty(what)}: find and pick` }), search, chips);
    details.before(picker);
    picker.details = details;
    // what is typed here finds an option; it is no edit of the battle (the form does not hear it)
    search.addEventListener("change", (event) => event.stopPropagation());
    search.addEventListener("input", (event) => {
      event.stopPropagation();
      details.open = true;
      filter(side, picker);
    });
    search.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault(); // not the form's submit
        const first = visibleOptions(details).find((box) => !box.disabled && !box.checked);
        if (first) {
          first.checked = true;
          edited(first);
          search.value = "";
          filter(side, picker);
        }
      } else if (event.key === "Escape") {
        search.value = "";
        filter(side, picker);
      }
    });
    filter(side, picker);
  }

  function pretty(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function options(details) {
    return [...details.querySelectorAll(".check input[type=checkbox]")];
  }

  function visibleOptions(details) {
    return options(details).filter((box) => !box.closest(".check").hidden);
  }

  /** Show the options the side may hold that match what is typed; fieldsets left empty hide. */
  function filter(side, picker) {
    const query = picker.querySelector("input").value.trim().toLowerCase();
    const faction = factionOf(side);
    for (const box of options(picker.details)) {
      const item = box.closest(".check");
      const held = mayHold(recordOf(box), faction);
      item.classList.toggle("not-held", !held);
      const text = item.textContent.toLowerCase();
      item.hidden = (!held && !box.checked) || (query !== "" && !text.includes(query));
    }
    for (const set of picker.details.querySelectorAll("fieldset.checks")) {
      set.hidden = ![...set.querySelectorAll(".check")].some((item) => !item.hidden);
    }
    chipsOf(side, picker);
  }

  function chipsOf(side, picker) {
    const chips = picker.querySelector(".chips");
    const chosen = options(picker.details).filter((box) => box.checked);
    chips.replaceChildren(...chosen.map((box) => {
      const name = box.closest(".check").querySelector("label").textContent;
      return el("li", { dataset: { chosen: box.id } },
        el("button", { type: "button", className: "chip", "aria-label": `Remove ${name}`,
          onclick: () => {
            box.checked = false;
            edited(box);
            picker.querySelector("input").focus();
          } }, name, el("span", { "aria-hidden": "true", text: " ×" })));
    }));
  }

  function refreshPickers(side) {
    for (const picker of document.querySelectorAll(`#side-${side} .picker`)) filter(side, picker);
  }

  /** The unit upgrades in the technology picker: each ticks its row's "II". */
  function addUpgradeProxies(side) {
    const set = document.querySelector(`#side-${side} fieldset[data-field="${side}.technologies"]`);
    if (!set) return;
    for (const unit of P().catalogue().upgrades || []) {
      const id = `${side}-tech-upgrade-${unit}`;
      if ($(id) || !$(`${side}-upgrade-${unit}`)) continue;
      const proxy = el("input", { type: "checkbox", id, dataset: { upgradeOf: unit } });
      set.append(el("div", { className: "check upgrade-proxy" }, proxy, el("label", { for: id })));
    }
  }

  /* ---- quick controls ------------------------------------------------------------------ */

  function addQuickControls() {
    const editor = $("ti-editor");
    let bar = $("quick-controls");
    if (!bar) {
      bar = el("div", { id: "quick-controls", className: "quick panel", role: "group",
        "aria-label": "Quick controls" });
      editor.prepend(bar);
    }
    const kinds = [...$("battle").options].map((o) => o.value);
    const kindButtons = el("div", { className: "kinds", role: "group", "aria-label": "Battle kind" },
      kinds.map((kind) => el("button", { type: "button", className: "kind", id: `kind-${kind}`,
        dataset: { kind }, text: BATTLE_WORDS[kind] || P().pretty(kind),
        onclick: () => {
          if ($("battle").value === kind) return;
          $("battle").value = kind;
          edited($("battle"));
          showKind();
        } })));
    bar.replaceChildren(kindButtons, el("div", { className: "quick-actions" },
      el("button", { type: "button", id: "swap-sides", onclick: swapSides,
        title: "The attacker's side becomes the defender's and the other way round" },
      el("span", { "aria-hidden": "true", text: "⇄ " }), "Swap sides"),
      el("button", { type: "button", id: "reset-battle", onclick: reset,
        title: "Back to the ruleset's default battle" }, "Reset")));
    // the select reads as the buttons do
    for (const option of $("battle").options) {
      if (BATTLE_WORDS[option.value]) option.textContent = BATTLE_WORDS[option.value];
    }
    showKind();
  }

  function showKind() {
    for (const button of document.querySelectorAll("#quick-controls .kind")) {
      button.setAttribute("aria-pressed", String(button.dataset.kind === $("battle").value));
    }
  }

  const OTHER = { attacker: "defender", defender: "attacker" };

  /** Swap sides (docs/rulings.md 25U-4): everything of one side becomes the other's (faction,
   *  units, damage, upgrades, technologies, cards, conditions, ground forces on its planets,
   *  policy), and so do the system's sided facts (whose units and command tokens are in each
   *  adjacent system, a law's elected player). Planets listed for an invasion stay: they are
   *  the planets being invaded. */
  function swapSides() {
    const scenario = P().collectScenario();
    [scenario.attacker, scenario.defender] = [scenario.defender, scenario.attacker];
    for (const adjacent of (scenario.system || {}).adjacent || []) {
      for (const key of ["units", "command_tokens"]) {
        if (adjacent[key]) adjacent[key] = adjacent[key].map((side) => OTHER[side] || side);
      }
    }
    for (const [law, elected] of Object.entries(scenario.elected || {})) {
      if (OTHER[elected]) scenario.elected[law] = OTHER[elected];
    }
    P().applyScenario(scenario);
    edited($("battle-form"));
    $("swap-sides").focus();
  }

  /** Reset: the ruleset's default battle, as when the ruleset is chosen. */
  function reset() {
    P().applyScenario(P().defaultScenario());
    edited($("battle-form"));
    $("reset-battle").focus();
  }

  /* ---- wiring --------------------------------------------------------------------------- */

  function enhance() {
    if (!P() || !tabular()) return;
    addQuickControls();
    for (const side of SIDES) {
      addSteppers(side);
      addUpgradeProxies(side);
      const panel = $(`side-${side}`);
      const techs = panel.querySelector(`fieldset[data-field="${side}.technologies"]`);
      if (techs) addPicker(side, techs.closest("details"), "tech", "technologies");
      const held = panel.querySelector(`fieldset[data-field="${side}.action_cards"], `
        + `fieldset[data-field="${side}.promissory_notes"], fieldset[data-field="${side}.leaders"]`);
      if (held) addPicker(side, held.closest("details"), "cards", "cards and leaders");
      showRows(side);
      refreshPickers(side);
      refreshSteppers(side);
    }
  }

  function refresh() {
    if (!P() || !tabular()) return;
    showKind();
    for (const side of SIDES) {
      showRows(side);
      refreshPickers(side);
      refreshSteppers(side);
    }
  }

  /** A faction chosen: the rows show its cards, and the pickers drop (unticking them) what it
   *  may not hold. Runs on the faction's own ``change``, before the form hears of it. */
  function factionChosen(side) {
    const faction = factionOf(side);
    for (const box of document.querySelectorAll(`#side-${side} .picker + details .check input`)) {
      if (box.checked && !mayHold(recordOf(box), faction)) box.checked = false;
    }
    showRows(side);
    refreshPickers(side);
    refreshSteppers(side);
  }

  document.addEventListener("spacecombat:form", (event) => {
    if (event.detail.what === "built") enhance();
    else refresh();
  });
  // The deferred scripts run in order, but the browser may serve app.js's catalogue request
  // while it waits for this script to arrive: the form can be built (and "built" announced)
  // before the listener above exists. Such a form is enhanced now; one not yet built is
  // enhanced when "built" comes (never both: the form was built before this line or after).
  if (tabular() && !$("quick-controls")) enhance();

  document.addEventListener("change", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !tabular()) return;
    const side = SIDES.find((s) => target.closest(`#side-${s}`));
    if (target.id === "battle") showKind();
    if (!side) return;
    if (target.id === `${side}-faction`) {
      factionChosen(side);
    } else if (target.dataset.upgradeOf) {
      // a unit upgrade picked in the technology picker ticks its row's "II"
      const box = $(`${side}-upgrade-${target.dataset.upgradeOf}`);
      box.checked = target.checked;
      showRow(side, target.dataset.upgradeOf);
      refreshPickers(side);
    } else if (target.dataset.field === `${side}.upgrades`) {
      showRow(side, target.dataset.unit);
      refreshPickers(side);
    } else if (target.matches(".check input[type=checkbox]")) {
      refreshPickers(side);
    }
  }, true);
})();
