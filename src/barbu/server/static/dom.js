// Building the pages from data: every text becomes a text node and every attribute is set as an
// attribute, so nothing a player types (a name, a title) can become markup or script. No page
// parses HTML from a string; the Content-Security-Policy (Trusted Types) refuses it anyway.

/**
 * A new element: `el("td", { class: "num", data: { seat: 2 } }, "text", node, [more, nodes])`.
 *
 * Attributes: `class`; `data` (an object of data-* values); `style` (an object of CSS
 * properties, custom properties included, set through the style object); `true` sets a boolean
 * attribute, `false`, `null` and `undefined` leave it out; anything else is set as text.
 * Children: strings and numbers become text nodes; `null`, `undefined` and `false` are skipped;
 * arrays are flattened.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") node.className = value;
    else if (name === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else if (name === "style") for (const [k, v] of Object.entries(value)) node.style.setProperty(k, String(v));
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...nodes(children));
  return node;
}

/** Children as nodes (see `el`): text stays text. */
export function nodes(children) {
  return children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false).map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
}

/** `items` with `separator` between each two (a text or a function making a fresh node). */
export function joined(items, separator) {
  return items.flatMap((item, i) => (i === 0 ? [item] : [typeof separator === "function" ? separator() : separator, item]));
}
