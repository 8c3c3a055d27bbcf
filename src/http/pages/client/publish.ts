/**
 * "Publish as draft": offered under a finished article when the key may publish to a target
 * (`GET /api/v1/publish` names the key's targets), it sends the article with the front matter
 * the publish route reads and shows the post's link once the site has saved the draft.
 */
import type { ArticleResponse } from "../../../client/index.js";
import { byId, el } from "./dom.js";
import { keyInput } from "./key.js";

const button = byId<HTMLButtonElement>("publish-draft");
const result = byId("publish-result");

let current: { article: ArticleResponse["article"]; key: string; target: string } | undefined;

/** The targets the key may publish to; none when the server says otherwise. */
async function targetsOf(key: string): Promise<string[]> {
  const response = await fetch("/api/v1/publish", { headers: { "x-api-key": key } });
  return response.ok ? ((await response.json()) as { targets: string[] }).targets : [];
}

/** The article as Markdown under the front matter `inkpress batch` writes (title, description, slug, keywords, language). */
function withFrontMatter(article: ArticleResponse["article"]): string {
  const fields = {
    title: article.title,
    description: article.metaDescription,
    slug: article.slug,
    keywords: article.keywords,
    language: article.language,
  };
  // JSON's strings and arrays are YAML too.
  const lines = Object.entries(fields).map(([name, value]) => `${name}: ${JSON.stringify(value)}`);
  return `---\n${lines.join("\n")}\n---\n\n${article.markdown}`;
}

/** Offer a finished article for publishing when the key has a target, or (undefined) hide the offer. */
export async function offerPublishing(answer: ArticleResponse | undefined): Promise<void> {
  current = undefined;
  button.hidden = true;
  result.hidden = true;
  const key = keyInput.value.trim();
  if (!answer || !key) return;
  const [target] = await targetsOf(key).catch(() => []);
  if (!target) return;
  current = { article: answer.article, key, target };
  button.textContent = `Publish as draft to ${target}`;
  button.hidden = false;
}

/** Publish the offered article as a draft and show its link, or why it was not published. */
async function publish(): Promise<void> {
  if (!current) return;
  const { article, key, target } = current;
  button.disabled = true;
  button.textContent = "Publishing…";
  try {
    const response = await fetch("/api/v1/publish", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ markdown: withFrontMatter(article), publish: { target, status: "draft" } }),
    });
    const answer = (await response.json()) as { url?: string; created?: boolean; detail?: string };
    if (!response.ok || !answer.url) {
      result.replaceChildren(el("strong", null, "Not published: "), answer.detail ?? `the server answered ${response.status}`);
    } else {
      const link = el("a", null, answer.url);
      link.href = answer.url;
      link.target = "_blank";
      link.rel = "noopener noreferrer";
      result.replaceChildren(`Draft ${answer.created ? "saved" : "updated"} on ${target}: `, link);
    }
  } catch (error) {
    result.replaceChildren(el("strong", null, "Not published: "), error instanceof Error ? error.message : String(error));
  } finally {
    result.hidden = false;
    button.disabled = false;
    button.textContent = `Publish as draft to ${target}`;
  }
}

button.addEventListener("click", () => void publish());
