/**
 * A tiny renderer for the Markdown subset the engine writes (headings, paragraphs, lists,
 * escapes), building DOM nodes with `textContent` only: model text never becomes markup.
 */
import { el } from "./dom.js";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
const INLINE = /\\([!-\/:-@\[-\x60{-~])|&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;

/** Backslash escapes and character references of CommonMark, undone: the result is plain text. */
function inline(text: string): string {
  return text.replace(INLINE, (match, escaped: string | undefined, ref: string) => {
    if (escaped) return escaped;
    if (ref.startsWith("#")) {
      const hex = ref[1] === "x" || ref[1] === "X";
      const code = hex ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
    }
    return Object.hasOwn(ENTITIES, ref) ? ENTITIES[ref]! : match;
  });
}

/** Render Markdown (headings, paragraphs, lists) into a fragment of text-only nodes. */
export function renderMarkdown(markdown: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  let block: HTMLElement | null = null;
  let list: HTMLElement | null = null;
  let ordered = false;
  let gap = false;
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    if (!line.trim()) {
      block = null;
      gap = true;
      continue;
    }
    const heading = HEADING.exec(line);
    const item = heading ? null : ITEM.exec(line);
    if (heading) {
      fragment.append(el(`h${heading[1]!.length}` as "h1", null, inline(heading[2] ?? "")));
      block = list = null;
    } else if (item) {
      const isOrdered = /\d/.test(item[1]!);
      if (!list || ordered !== isOrdered) {
        list = fragment.appendChild(el(isOrdered ? "ol" : "ul"));
        ordered = isOrdered;
      }
      block = list.appendChild(el("li", null, inline(item[2]!)));
    } else if (block && !gap) {
      block.textContent += ` ${inline(line.trim())}`;
    } else {
      block = fragment.appendChild(el("p", null, inline(line.trim())));
      list = null;
    }
    gap = false;
  }
  return fragment;
}
