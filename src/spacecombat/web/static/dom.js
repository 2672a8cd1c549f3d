/* spacecombat: the page's one DOM helper, shared by app.js, ec4x_form.js and units.js
 * (loaded first; plain JavaScript, no build step).
 *
 * el(tag, attrs, ...children) makes an element: attrs "text" sets its text, "className" its
 * class, "dataset" its data-* attributes, "on<event>" a listener, any other key an attribute
 * (true: present and empty; null, undefined or false: left out); children are nodes or strings
 * (null, undefined and false left out; arrays flattened).
 */
"use strict";

window.spacecombatDom = Object.freeze({
  el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  },
});
