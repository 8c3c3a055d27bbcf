/** The few DOM helpers the playground's modules share. */

/** The element of an id the page is known to have. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`The page has no #${id}.`);
  return node as T;
}

/** A new element with an optional class and text: text is only ever text, never markup. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string | null, text?: unknown): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
