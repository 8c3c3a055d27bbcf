import { createHmac } from "node:crypto";
import type { Published } from "../article/wire/publish.js";
import type { CallAnswer, TargetCaller } from "./call.js";
import type { Post } from "./post.js";

interface GhostPost {
  id: string;
  url: string;
  status: string;
  updated_at: string;
}

const API = "/ghost/api/admin/posts";

/** Ghost's names for the request's statuses. */
const STATUS = { draft: "draft", publish: "published", future: "scheduled" } as const;

/**
 * Publishes to Ghost over its Admin API: a short-lived JWT signed with the Admin API key's
 * secret (HS256, `kid` the key's id, audience `/admin/`, 5 minutes), HTML sent with
 * `?source=html`. The post is looked up by recorded id and then by slug first, and an edit
 * sends the post's current `updated_at`, as Ghost requires to refuse lost updates.
 */
export class GhostClient {
  constructor(private readonly caller: TargetCaller) {}

  /** Create or update the post; throws a PublishError naming the target. */
  async publish(post: Post): Promise<Published> {
    const existing = await this.#find(post);
    const body = {
      posts: [
        {
          title: post.title,
          html: post.html,
          // An existing post keeps its address unless the request names a slug.
          ...(existing && !post.slugChosen ? {} : { slug: post.slug }),
          custom_excerpt: post.excerpt.slice(0, 300),
          meta_title: post.title,
          meta_description: post.excerpt.slice(0, 500),
          tags: [...post.categories, ...post.tags].map((name) => ({ name })),
          status: STATUS[post.status],
          ...(post.date ? { published_at: post.date } : {}),
          ...(existing ? { updated_at: existing.updated_at } : {}),
        },
      ],
    };
    const path = existing ? `${API}/${existing.id}/?source=html` : `${API}/?source=html`;
    const answer = await this.#call(existing ? "PUT" : "POST", path, existing ? "updating the post" : "creating the post", body);
    const saved = (answer.json as { posts: GhostPost[] }).posts[0]!;
    return { target: this.caller.target.name, id: saved.id, url: saved.url, status: saved.status, created: !existing };
  }

  async #find(post: Post): Promise<GhostPost | undefined> {
    if (post.recordedId && /^[0-9a-f]{24}$/.test(post.recordedId)) {
      const answer = await this.caller.call({ method: "GET", path: `${API}/${post.recordedId}/`, authorization: this.#token() });
      if (answer.status === 200) return (answer.json as { posts: GhostPost[] }).posts[0];
      if (answer.status !== 404) throw this.caller.refused(answer, "reading the recorded post");
    }
    const found = await this.#call(
      "GET",
      `${API}/?filter=${encodeURIComponent(`slug:'${post.slug}'`)}&limit=1`,
      "looking the post up by slug",
    );
    return (found.json as { posts: GhostPost[] }).posts[0];
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
