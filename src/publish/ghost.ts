import { createHmac } from "node:crypto";
import type { Published } from "../contract/publish.js";
import type { CallAnswer, TargetCaller } from "./call.js";
import type { CmsClient, FoundPost } from "./ownership.js";
import type { Post } from "./post.js";

interface GhostPost {
  id: string;
  url: string;
  status: string;
  slug: string;
  title: string;
  updated_at: string;
}

const API = "/ghost/api/admin/posts";

/** Ghost's names for the request's statuses. */
const STATUS = { draft: "draft", publish: "published", future: "scheduled" } as const;

/**
 * Publishes to Ghost over its Admin API: a short-lived JWT signed with the Admin API key's
 * secret (HS256, `kid` the key's id, audience `/admin/`, 5 minutes), HTML sent with
 * `?source=html`. The post is looked up by recorded id and then by slug first, and an edit
 * sends the post's current `updated_at`, as Ghost requires to refuse lost updates. Ghost keeps
 * titles, excerpts and tag names as text (its themes escape them), so they go as plain text.
 */
export class GhostClient implements CmsClient {
  constructor(private readonly caller: TargetCaller) {}

  /** Ghost's key is checked on every call: nothing to check first. */
  async check(): Promise<void> {}

  /** Create the post, or update `existing` (its status only when the request names one); throws a PublishError naming the target. */
  async save(post: Post, existing: FoundPost | undefined, created: (id: string) => Promise<void>): Promise<Published> {
    const body = {
      posts: [
        {
          title: post.title,
          html: post.html,
          // An existing post keeps its address and its status unless the request names them.
          ...(existing && !post.slugChosen ? {} : { slug: post.slug }),
          custom_excerpt: post.excerpt.slice(0, 300),
          meta_title: post.title,
          meta_description: post.excerpt.slice(0, 500),
          tags: [...post.categories, ...post.tags].map((name) => ({ name })),
          ...(existing && !post.statusChosen ? {} : { status: STATUS[post.status] }),
          ...(post.date ? { published_at: post.date } : {}),
          ...(existing ? { updated_at: existing.version } : {}),
        },
      ],
    };
    const path = existing ? `${API}/${existing.id}/?source=html` : `${API}/?source=html`;
    const answer = await this.#call(existing ? "PUT" : "POST", path, existing ? "updating the post" : "creating the post", body);
    const saved = (answer.json as { posts: GhostPost[] }).posts[0]!;
    if (!existing) await created(saved.id);
    return { target: this.caller.target.name, id: saved.id, url: saved.url, status: saved.status, created: !existing };
  }

  /** The post of a recorded id, unless there is none. */
  async byId(id: string): Promise<FoundPost | undefined> {
    if (!/^[0-9a-f]{24}$/.test(id)) return undefined;
    const answer = await this.caller.call({ method: "GET", path: `${API}/${id}/`, authorization: this.#token() });
    if (answer.status === 200) return found((answer.json as { posts: GhostPost[] }).posts[0]!);
    if (answer.status !== 404) throw this.caller.refused(answer, "reading the recorded post");
    return undefined;
  }

  /** The posts of a slug (Ghost keeps slugs unique, so one at most). */
  async bySlug(slug: string): Promise<FoundPost[]> {
    const answer = await this.#call(
      "GET",
      `${API}/?filter=${encodeURIComponent(`slug:'${slug}'`)}&limit=all`,
      "looking the post up by slug",
    );
    return (answer.json as { posts: GhostPost[] }).posts.map(found);
  }

  async #call(method: "GET" | "POST" | "PUT", path: string, doing: string, body?: unknown): Promise<CallAnswer> {
    const answer = await this.caller.call({ method, path, authorization: this.#token(), ...(body === undefined ? {} : { body }) });
    if (answer.status < 200 || answer.status > 299 || answer.json === undefined) throw this.caller.refused(answer, doing);
    return answer;
  }

  /** A fresh Admin API token: made per call, so a retry after a wait never sends an expired one. */
  #token(): string {
    const [id, secret] = this.caller.target.secret.split(":") as [string, string];
    const now = Math.floor(Date.now() / 1000);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unsigned = `${part({ alg: "HS256", typ: "JWT", kid: id })}.${part({ iat: now, exp: now + 300, aud: "/admin/" })}`;
    return `Ghost ${unsigned}.${createHmac("sha256", Buffer.from(secret, "hex")).update(unsigned).digest("base64url")}`;
  }
}

/** A post as `publishOwned` weighs it. */
function found(post: GhostPost): FoundPost {
  return { id: post.id, slug: post.slug, title: post.title, version: post.updated_at };
}
