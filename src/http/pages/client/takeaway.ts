/** Taking a finished article away: copy its Markdown or HTML, or download its Markdown as a file. */
import { byId } from "./dom.js";

/** What the buttons hand out: the finished answer's Markdown, HTML and slug. */
export interface Takeaway {
  markdown: string;
  html: string;
  slug: string;
}

let current: Takeaway | undefined;

/**
 * Text onto the clipboard. The Clipboard API needs a secure context (https or localhost); a
 * server reached over plain http on another address falls back to copying a selection.
 */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("copy refused");
}

/** A button that copies, saying for a moment whether it worked. */
function copyButton(id: string, text: (article: Takeaway) => string): void {
  const button = byId<HTMLButtonElement>(id);
  const label = button.textContent;
  button.addEventListener("click", async () => {
    if (!current) return;
    button.textContent = await copyText(text(current)).then(
      () => "Copied",
      () => "Copy failed",
    );
    setTimeout(() => (button.textContent = label), 1500);
  });
}

/** Save the Markdown as `<slug>.md`. */
function download(): void {
  if (!current) return;
  const url = URL.createObjectURL(new Blob([current.markdown], { type: "text/markdown;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `${current.slug || "article"}.md`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Offer a finished article, or (undefined) hide the buttons until the next one. */
export function offer(article: Takeaway | undefined): void {
  current = article;
  byId("takeaway").hidden = !article;
}

copyButton("copy-md", (article) => article.markdown);
copyButton("copy-html", (article) => article.html);
byId("download-md").addEventListener("click", download);
