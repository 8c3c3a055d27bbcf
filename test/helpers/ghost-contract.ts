import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** A post as the contract server keeps it. */
export interface ContractPost {
  id: string;
  slug: string;
  title: string;
  html: string | undefined;
  custom_excerpt: string;
  meta_title: string;
  meta_description: string;
  tags: { name: string }[];
  status: string;
  published_at: string | null;
  updated_at: string;
  url: string;
  /** Times the post was edited. */
  edits: number;
}

/** A server that enforces the documented rules of Ghost's Admin API; NOT Ghost itself. */
export interface GhostContractServer {
  url: string;
  /** The Admin API key, `id:secret`. */
  key: string;
  posts: ContractPost[];
  stop(): Promise<void>;
}

/**
 * A stand-in for Ghost 5's Admin API, enforcing the rules its documentation states: a JWT in
 * `Authorization: Ghost <token>`, HS256 signed with the hex-decoded secret, `kid` the key's id,
 * audience `/admin/`, at most 5 minutes between `iat` and `exp`; HTML taken only with
 * `?source=html`; an edit must send the post's current `updated_at` (else 409
 * UpdateCollisionError); statuses draft, published, scheduled (a future `published_at`).
 */
export async function startGhostContract(): Promise<GhostContractServer> {
  const id = randomBytes(12).toString("hex");
  const secret = randomBytes(32).toString("hex");
  const posts: ContractPost[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => handle(req, res, body));
  });
  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const send = (status: number, json: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    const refusal = authRefusal(req.headers.authorization, id, secret);
    if (refusal) return send(401, { errors: [{ type: "UnauthorizedError", message: refusal }] });
    const url = new URL(req.url ?? "/", "http://ghost.invalid");
    const match = /^\/ghost\/api\/admin\/posts\/(?:([0-9a-f]{24})\/)?$/.exec(url.pathname);
    if (!match) return send(404, { errors: [{ type: "NotFoundError", message: "Resource not found" }] });
    const existing = match[1] ? posts.find((post) => post.id === match[1]) : undefined;
    if (match[1] && !existing) return send(404, { errors: [{ type: "NotFoundError", message: "Post not found." }] });
    if (req.method === "GET") {
      if (existing) return send(200, { posts: [existing] });
      const slug = /^slug:'([^']*)'$/.exec(url.searchParams.get("filter") ?? "")?.[1];
      return send(200, { posts: posts.filter((post) => slug === undefined || post.slug === slug) });
    }
    const given = (JSON.parse(body || "{}") as { posts?: Partial<ContractPost>[] }).posts?.[0];
    if (!given?.title)
      return send(422, { errors: [{ type: "ValidationError", message: "Validation error, cannot save post. title is required" }] });
    if (!["draft", "published", "scheduled"].includes(given.status ?? "draft"))
      return send(422, { errors: [{ type: "ValidationError", message: "status is invalid" }] });
    if (given.status === "scheduled" && !(Date.parse(given.published_at ?? "") > Date.now()))
      return send(422, { errors: [{ type: "ValidationError", message: "Date must be at least 2 minutes in the future." }] });
    // Without ?source=html Ghost reads only Lexical or mobiledoc: HTML is dropped.
    const html = url.searchParams.get("source") === "html" ? given.html : undefined;
    const now = new Date().toISOString();
    if (req.method === "PUT" && existing) {
      if (given.updated_at !== existing.updated_at)
        return send(409, { errors: [{ type: "UpdateCollisionError", message: "Saving failed! Someone else is editing this post." }] });
      // An edit changes only the fields it sends (a post's status stays unless one is sent).
      const sent = Object.entries(fields(given, html)).filter(([name]) => name in given);
      Object.assign(existing, Object.fromEntries(sent), { updated_at: now, edits: existing.edits + 1 });
      return send(200, { posts: [existing] });
    }
    if (req.method !== "POST" || match[1]) return send(405, { errors: [{ type: "MethodNotAllowedError", message: "Method not allowed" }] });
    const slug = given.slug && !posts.some((post) => post.slug === given.slug) ? given.slug : `${given.slug ?? "post"}-${posts.length + 2}`;
    const post: ContractPost = { id: randomBytes(12).toString("hex"), slug, ...fields(given, html), updated_at: now, url: "", edits: 0 };
    post.url = `${address}/p/${post.id}/`;
    posts.push(post);
    return send(201, { posts: [post] });
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url: address, key: `${id}:${secret}`, posts, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

function fields(given: Partial<ContractPost>, html: string | undefined) {
  return {
    title: given.title ?? "",
    html,
    custom_excerpt: given.custom_excerpt ?? "",
    meta_title: given.meta_title ?? "",
    meta_description: given.meta_description ?? "",
    tags: given.tags ?? [],
    status: given.status ?? "draft",
    published_at: given.published_at ?? null,
  };
}

/** Why a token is refused, or undefined when it meets the Admin API's rules. */
function authRefusal(header: string | undefined, id: string, secret: string): string | undefined {
  const token = /^Ghost (\S+)$/.exec(header ?? "")?.[1];
  if (!token) return 'Authorization header format is "Authorization: Ghost [token]"';
  const [head = "", payload = "", signature = ""] = token.split(".");
  const decode = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString()) as Record<string, unknown>;
  const header_ = decode(head);
  const claims = decode(payload);
  if (header_.alg !== "HS256" || header_.kid !== id) return "Unknown Admin API Key";
  const expected = createHmac("sha256", Buffer.from(secret, "hex")).update(`${head}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "Invalid token: invalid signature";
  if (claims.aud !== "/admin/") return "Invalid token: jwt audience invalid";
  const iat = Number(claims.iat);
  const exp = Number(claims.exp);
  if (!(exp - iat <= 300)) return "Invalid token: maximum lifetime is 5 minutes";
  if (!(exp > Date.now() / 1000)) return "Invalid token: jwt expired";
  return undefined;
}
