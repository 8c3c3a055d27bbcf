import type { Published } from "../contract/publish.js";
import type { CallAnswer, TargetCaller } from "./call.js";
import { PublishError } from "./errors.js";
import type { CmsClient, FoundPost } from "./ownership.js";
import { toBlocks } from "./blocks.js";
import type { Post } from "./post.js";

/** The SEO plugins' post meta, as WordPress exposes it over REST when the plugin (or a site's code) registers it with `show_in_rest`. */
const SEO_META = {
  yoast: { title: "_yoast_wpseo_title", description: "_yoast_wpseo_metadesc", keyword: "_yoast_wpseo_focuskw" },
  rankMath: { title: "rank_math_title", description: "rank_math_description", keyword: "rank_math_focus_keyword" },
} as const;
/**
 * The post meta of inkpress's must-use plugin (docs/wordpress/inkpress-head.php), for a site
 * without an SEO plugin: it prints them in the page's head as the meta description and JSON-LD.
 */
const HEAD_META = { description: "inkpress_description", jsonLd: "inkpress_jsonld" } as const;
/** Where the docs give the must-use plugin, for the answer's notes. */
const HEAD_PLUGIN_DOCS = "docs/operating.md#wordpress-without-an-seo-plugin";

interface WpPost {
  id: number;
  link: string;
  status: string;
  slug: string;
  title: { raw?: string; rendered?: string };
}

const API = "/wp-json/wp/v2";

/**
 * Publishes to WordPress over its REST API with an application password. WordPress has no
 * idempotency (a second create becomes `slug-2`), so the post is looked up first (by the id
 * the article recorded, then by slug in every status; `publishOwned` decides which may be
 * updated): a retry, a resumed batch or a refresh never makes a second post. WordPress keeps
 * titles, excerpts, meta and term names as HTML, so each goes as plain text with `<` and `>` escaped.
 */
export class WordPressClient implements CmsClient {
  readonly #authorization: string;

  constructor(private readonly caller: TargetCaller) {
    const { user, secret } = caller.target;
    this.#authorization = `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
  }

  /** Create the post, or update `existing` (its status only when the request names one); throws a {@link PublishError} naming the target. */
  async save(post: Post, existing: FoundPost | undefined, created: (id: string) => Promise<void>): Promise<Published> {
    const [categories, tags, { meta, notes }] = await Promise.all([
      this.#terms("categories", post.categories),
      this.#terms("tags", post.tags),
      this.#seoMeta(post),
    ]);
    const content = toBlocks(post.html);
    const body = {
      title: htmlText(post.title),
      content,
      excerpt: htmlText(post.excerpt),
      // An existing post keeps its address and its status unless the request names them.
      ...(existing && !post.slugChosen ? {} : { slug: post.slug }),
      ...(existing && !post.statusChosen ? {} : { status: post.status }),
      categories,
      tags,
      ...(Object.keys(meta).length ? { meta } : {}),
      // WordPress reads date_gmt without a zone, as UTC.
      ...(post.date ? { date_gmt: post.date.replace(/\.\d+Z$|Z$/, "") } : {}),
    };
    const answer = await this.#call(
      "POST",
      existing ? `${API}/posts/${existing.id}` : `${API}/posts`,
      existing ? "updating the post" : "creating the post",
      body,
    );
    const saved = answer.json as WpPost;
    if (!existing) await created(String(saved.id));
    // WordPress stores a revision on each update, of the text it updates to, never on a create: the
    // first text is recorded now, so that a later update (a refresh) leaves it in the post's history.
    if (!existing) await this.#call("POST", `${API}/posts/${saved.id}`, "recording the first revision", { content });
    const published = { target: this.caller.target.name, id: String(saved.id), url: saved.link, status: saved.status, created: !existing };
    return notes.length ? { ...published, notes } : published;
  }

  /**
   * Who the credentials are, first: WordPress serves a request whose application password it
   * refuses as an anonymous one, so a wrong password would otherwise surface as some other
   * refusal further on. The user's capabilities then say at once what it may not do.
   */
  async check(post: Post): Promise<void> {
    const me = await this.#call("GET", `${API}/users/me?context=edit`, "checking the credentials");
    const capabilities = (me.json as { capabilities?: Record<string, boolean> }).capabilities ?? {};
    const needed = post.status === "draft" ? "edit_posts" : "publish_posts";
    if (!capabilities[needed]) {
      throw new PublishError(
        this.caller.target.name,
        `target "${this.caller.target.name}"'s user "${this.caller.target.user}" lacks the capability ${needed}, which ` +
          `${post.status === "draft" ? "writing a draft" : `status "${post.status}"`} needs`,
      );
    }
  }

  /** The post of a recorded id, unless it is gone or in the trash. */
  async byId(id: string): Promise<FoundPost | undefined> {
    if (!/^\d+$/.test(id)) return undefined;
    const answer = await this.caller.call({ method: "GET", path: `${API}/posts/${id}?context=edit`, authorization: this.#authorization });
    if (answer.status === 200 && (answer.json as WpPost).status !== "trash") return found(answer.json as WpPost);
    if (answer.status !== 404 && answer.status !== 410) throw this.caller.refused(answer, "reading the recorded post");
    return undefined;
  }

  /** The posts of a slug in any status (drafts may share one). */
  async bySlug(slug: string): Promise<FoundPost[]> {
    const answer = await this.#call(
      "GET",
      `${API}/posts?slug=${encodeURIComponent(slug)}&status=any&context=edit&per_page=100`,
      "looking the post up by slug",
    );
    return (answer.json as WpPost[]).map(found);
  }

  /** Term ids of names, matched case-insensitively; a missing one is created when the target allows, else an error naming it. */
  async #terms(taxonomy: "categories" | "tags", names: string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const name of names) {
      const found = await this.#call(
        "GET",
        `${API}/${taxonomy}?search=${encodeURIComponent(name)}&per_page=100&context=edit`,
        `reading ${taxonomy}`,
      );
      const match = (found.json as { id: number; name: string }[]).find(
        (term) => decodeEntities(term.name).toLowerCase() === name.toLowerCase(),
      );
      if (match) {
        ids.push(match.id);
        continue;
      }
      if (!this.caller.target.createTerms) {
        throw new PublishError(
          this.caller.target.name,
          `target "${this.caller.target.name}" has no ${taxonomy === "tags" ? "tag" : "category"} "${name}", and its configuration does not let inkpress ` +
            `create terms ("createTerms": true)`,
          { status: 422 },
        );
      }
      const created = await this.caller.call({
        method: "POST",
        path: `${API}/${taxonomy}`,
        body: { name: htmlText(name) },
        authorization: this.#authorization,
      });
      const existing = (created.json as { code?: string; data?: { term_id?: number } } | undefined)?.data?.term_id;
      if (created.status === 201) ids.push((created.json as { id: number }).id);
      else if (existing) ids.push(existing);
      else throw this.caller.refused(created, `creating the ${taxonomy === "tags" ? "tag" : "category"} "${name}"`);
    }
    return ids;
  }

  /**
   * The SEO plugins' fields and the must-use plugin's that the site exposes over REST, read from
   * the posts route's schema, and a note for each of the description and the JSON-LD that no
   * field of the site shows (an SEO plugin prints structured data of its own).
   */
  async #seoMeta(post: Post): Promise<{ meta: Record<string, string>; notes: string[] }> {
    const schema = await this.#call("OPTIONS", `${API}/posts`, "reading the posts schema");
    const exposed =
      (schema.json as { schema?: { properties?: { meta?: { properties?: Record<string, unknown> } } } })?.schema?.properties?.meta
        ?.properties ?? {};
    const values = { title: htmlText(post.title), description: htmlText(post.excerpt), keyword: htmlText(post.keywords[0] ?? "") };
    const meta: Record<string, string> = {};
    for (const plugin of Object.values(SEO_META)) {
      for (const [field, key] of Object.entries(plugin)) if (key in exposed) meta[key] = values[field as keyof typeof values];
    }
    const plugin = Object.keys(meta).length > 0;
    if (!plugin && HEAD_META.description in exposed) meta[HEAD_META.description] = values.description;
    if (!plugin && HEAD_META.jsonLd in exposed && post.jsonLd) meta[HEAD_META.jsonLd] = post.jsonLd;
    const notes: string[] = [];
    const shown = (what: string, key: string) => {
      if (plugin || key in meta) return;
      const why =
        key in exposed
          ? "this article carries none"
          : `the site has no SEO plugin exposing its fields over REST, nor inkpress's must-use plugin (${HEAD_PLUGIN_DOCS})`;
      notes.push(`target "${this.caller.target.name}" shows no ${what} on the post's page: ${why}`);
    };
    shown("meta description", HEAD_META.description);
    shown("JSON-LD", HEAD_META.jsonLd);
    return { meta, notes };
  }

  /** A call that must succeed (2xx); otherwise the target's refusal. */
  async #call(method: "GET" | "POST" | "OPTIONS", path: string, doing: string, body?: unknown): Promise<CallAnswer> {
    const answer = await this.caller.call({ method, path, authorization: this.#authorization, ...(body === undefined ? {} : { body }) });
    if (answer.status < 200 || answer.status > 299 || answer.json === undefined) throw this.caller.refused(answer, doing);
    return answer;
  }
}

/** A post as `publishOwned` weighs it. */
function found(post: WpPost): FoundPost {
  return { id: String(post.id), slug: post.slug, title: post.title.raw ?? post.title.rendered ?? "" };
}

/** Plain text as WordPress keeps it in a field it prints as HTML: its `<` and `>` escaped, so no tag comes of it. */
function htmlText(text: string): string {
  return text.replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The few entities WordPress writes into term names. */
function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'");
}
