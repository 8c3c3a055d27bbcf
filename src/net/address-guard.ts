import dns from "node:dns";
import net from "node:net";
import os from "node:os";
import ipaddr from "ipaddr.js";
import { InkpressError, InvalidFieldError } from "../errors.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One address a host name resolves to, as `dns.promises.lookup(host, { all: true })` gives it. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Resolves a host name to every address it has. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** How a {@link WebhookAddressGuard} is built. */
export interface WebhookAddressGuardOptions {
  /**
   * Host names, IP addresses and CIDR ranges exempt from the private-address refusal
   * (`--webhook-allow`, INKPRESS_WEBHOOK_ALLOW), such as `127.0.0.1` or `10.0.0.0/8`.
   * @default []
   */
  allow?: readonly string[];
  /**
   * Resolves host names; tests replace it so that no real DNS is asked.
   * @default {@link dnsResolver}()
   */
  resolve?: HostResolver;
  /**
   * The addresses of this host's own interfaces, refused as loopback is.
   * @default every address of `os.networkInterfaces()`, read at each check
   */
  ownAddresses?: () => string[];
  /**
   * What the refusals name: the field, who may not call, and how an address is allowed.
   * @default webhooks: `webhook.url`, allowed by `--webhook-allow`
   */
  subject?: GuardSubject;
}

/** What a guard's refusals name. */
export interface GuardSubject {
  /** The field refused, such as `webhook.url`. */
  field: string;
  /** Who may not call such addresses, such as `webhooks`. */
  who: string;
  /** How the operator allows an address, such as `the server's --webhook-allow lists them`. */
  allowedBy: string;
}

const WEBHOOKS: GuardSubject = { field: "webhook.url", who: "webhooks", allowedBy: "the server's --webhook-allow lists them" };

/** How {@link dnsResolver} asks. */
export interface DnsResolverOptions {
  /**
   * Longest wait for an answer; past it the name counts as not resolving.
   * @default 2000
   */
  deadlineMs?: number;
  /**
   * DNS servers to ask, such as `["127.0.0.1:5353"]`.
   * @default the system's (resolv.conf)
   */
  servers?: string[];
}

/**
 * A host's A and AAAA records through c-ares (`dns.promises.Resolver`), within a deadline.
 * c-ares asks on the event loop's own sockets: unlike `dns.lookup` (getaddrinfo), a slow DNS
 * server never holds a thread of the libuv pool that every file read and write shares.
 * `localhost` and its subdomains are loopback without asking (RFC 6761); other names of the
 * hosts file are not seen.
 */
export function dnsResolver({ deadlineMs = 2000, servers }: DnsResolverOptions = {}): HostResolver {
  return async (hostname) => {
    if (hostname === "localhost" || hostname.endsWith(".localhost")) {
      return [
        { address: "127.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ];
    }
    const resolver = new dns.promises.Resolver({ timeout: deadlineMs, tries: 1 });
    if (servers) resolver.setServers(servers);
    const timer = setTimeout(() => resolver.cancel(), deadlineMs);
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const found = [
        ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (found.length) return found;
      const reason = (v4 as PromiseRejectedResult).reason as NodeJS.ErrnoException;
      // Cancelled at the deadline, or timed out by c-ares itself: either way, too late.
      if (reason.code === dns.CANCELLED) reason.code = dns.TIMEOUT;
      throw reason;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** A webhook URL that passed the guard, with the addresses it may be delivered to. */
export interface WebhookTarget {
  url: URL;
  /** The host name as the URL gives it, without IPv6 brackets or a trailing dot. */
  hostname: string;
  /**
   * Every address the host resolved to, all checked, in the resolver's order. The delivery
   * connects to these and never resolves the name again, so a DNS answer that changes
   * between the check and the connection (DNS rebinding) cannot slip past the guard.
   */
  addresses: ResolvedAddress[];
}

/**
 * A `lookup` that answers with the guard's addresses instead of asking DNS again, so the
 * connection goes where the check looked (no DNS rebinding between check and connect): webhooks
 * and publishing connect through it, each on a fresh connection (`agent: false`).
 */
export function pinnedLookup(addresses: ResolvedAddress[]): net.LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : (options.family ?? 0);
    const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`no IPv${family} address for ${hostname}`);
      error.code = "ENOTFOUND";
      return callback(error, "");
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

/** Words for the address ranges that are refused, as ipaddr.js names them. */
const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address",
  uniqueLocal: "a unique-local address",
  unspecified: "an unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  carrierGradeNat: "a carrier-grade NAT address",
  reserved: "a reserved address",
  ipv4Compatible: "an IPv4-compatible IPv6 address",
};

/**
 * Cloud metadata services (AWS, GCP and Azure; ECS; AWS over IPv6; Alibaba), named on their own
 * since they are the usual SSRF target: no `--webhook-allow` entry lifts their refusal.
 */
const METADATA = ["169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200"].map((a) => ipaddr.parse(a).toNormalizedString());

/** Deprecated IPv4-compatible IPv6 (`::a.b.c.d`), which ipaddr.js counts as unicast. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR("::/96");

/**
 * Refuses webhook URLs that would make the server call into its own network (SSRF):
 * loopback, private, link-local (cloud metadata), unique-local, carrier-grade NAT and every
 * other address that is not public unicast, and this host's own addresses, unless
 * `--webhook-allow` names the host, the address or a range holding it. Cloud metadata
 * addresses are refused whatever the allow list says. The allow list is parsed once, so a bad
 * entry stops the server at start rather than at the first webhook.
 */
export class WebhookAddressGuard {
  readonly #hosts = new Set<string>();
  readonly #ranges: [Address, number][] = [];
  readonly #resolve: HostResolver;
  readonly #ownAddresses: () => string[];
  readonly #subject: GuardSubject;

  constructor(options: WebhookAddressGuardOptions = {}) {
    this.#subject = options.subject ?? WEBHOOKS;
    this.#resolve = options.resolve ?? dnsResolver();
    this.#ownAddresses = options.ownAddresses ?? interfaceAddresses;
    for (const entry of options.allow ?? []) this.#addAllowed(entry);
  }

  /**
   * Check a webhook URL and resolve its host. Throws an {@link InkpressError} with status 422
   * naming `webhook.url` when the URL is not plain http(s), carries credentials, does not
   * resolve, or any of its addresses is refused.
   */
  async check(url: string | URL): Promise<WebhookTarget> {
    const parsed = typeof url === "string" ? (URL.canParse(url) ? new URL(url) : undefined) : url;
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
      throw refused(this.#subject, "must be an absolute http:// or https:// URL");
    }
    if (parsed.username || parsed.password) throw refused(this.#subject, "must not carry a user name or password");
    const hostname = bare(parsed.hostname);
    if (!hostname) throw refused(this.#subject, "has no host");
    const hostAllowed = this.#hosts.has(hostname);
    const addresses = await this.#addresses(hostname);
    const target = net.isIP(hostname) ? "is" : "resolves to";
    const own = new Set(
      this.#ownAddresses()
        .filter((a) => ipaddr.isValid(a))
        .map((a) => ipaddr.process(a).toNormalizedString()),
    );
    for (const { address } of addresses) {
      const ip = ipaddr.process(address);
      if (METADATA.includes(ip.toNormalizedString()))
        throw refused(this.#subject, `${target} a cloud metadata address, which ${this.#subject.who} may never call`);
      if (hostAllowed || this.#inAllowedRange(ip)) continue;
      const why = refusedRange(ip) ?? (own.has(ip.toNormalizedString()) ? "an address of this server's own" : undefined);
      if (why === undefined) continue;
      throw refused(
        this.#subject,
        `${target} ${why}; ${this.#subject.who} may not call loopback, private, link-local or the server's own addresses unless ${this.#subject.allowedBy}`,
      );
    }
    return { url: parsed, hostname, addresses };
  }

  /** The host's addresses: an IP literal as it is, a name through the resolver. */
  async #addresses(hostname: string): Promise<ResolvedAddress[]> {
    const family = net.isIP(hostname);
    if (family) return [{ address: hostname, family }];
    let found: ResolvedAddress[];
    try {
      found = await this.#resolve(hostname);
    } catch (error) {
      const late = (error as NodeJS.ErrnoException).code === dns.TIMEOUT;
      throw refused(this.#subject, `host "${hostname}" does not resolve${late ? " in time" : ""}`, error);
    }
    // An answer that is not an address at all is refused rather than trusted.
    const valid = found.filter((a) => net.isIP(a.address));
    if (valid.length === 0 || valid.length !== found.length)
      throw refused(this.#subject, `host "${hostname}" does not resolve to an address`);
    return valid;
  }

  #inAllowedRange(ip: Address): boolean {
    return this.#ranges.some((range) => range[0].kind() === ip.kind() && ip.match(range));
  }

  #addAllowed(raw: string): void {
    const entry = raw.trim();
    const invalid = () =>
      new InkpressError(`webhook allow entry "${raw}" is not a host name, an IP address or a CIDR range such as 10.0.0.0/8`);
    if (entry.includes("/")) {
      const [address, bits] = entry.split("/");
      if (!net.isIP(address ?? "") || !/^\d{1,3}$/.test(bits ?? "") || !ipaddr.isValidCIDR(entry)) throw invalid();
      const [ip, prefix] = ipaddr.parseCIDR(entry);
      // An IPv4-mapped range such as ::ffff:10.0.0.0/104 is the IPv4 range it maps.
      if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
        this.#ranges.push([(ip as ipaddr.IPv6).toIPv4Address(), prefix - 96]);
      } else this.#ranges.push([ip, prefix]);
      return;
    }
    const host = bare(entry);
    if (net.isIP(host)) {
      // Compared as an address, so it matches however a URL writes it (`[::ffff:127.0.0.1]`).
      const ip = ipaddr.process(host);
      this.#ranges.push([ip, ip.kind() === "ipv4" ? 32 : 128]);
      return;
    }
    // Kept as URLs will show the name: punycode for IDNs, and IPv4 for names such as `0x7f.1`.
    const seen = /^[^\s:/?#@\\[\]%]+$/.test(host) && URL.canParse(`http://${host}/`) ? bare(new URL(`http://${host}/`).hostname) : "";
    if (!net.isIP(seen)) {
      if (!/^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/.test(seen)) throw invalid();
      return void this.#hosts.add(seen);
    }
    const ip = ipaddr.process(seen);
    this.#ranges.push([ip, ip.kind() === "ipv4" ? 32 : 128]);
  }
}

/** Every address of this host's network interfaces. */
function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((a) => a.address.replace(/%.*$/, "")));
}

/** Why an address is refused, or undefined when it is public unicast. */
function refusedRange(ip: Address): string | undefined {
  const range = ip.range();
  if (range === "unicast") return ip.kind() === "ipv6" && ip.match(IPV4_COMPATIBLE) ? RANGE_WORDS.ipv4Compatible : undefined;
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}

/** A host as URLs and the allow list compare it: lower case, no IPv6 brackets, no trailing dot. */
function bare(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.endsWith(".")) h = h.slice(0, -1);
  return h;
}

/** The 422 the jobs route answers at submit time, naming the field. */
function refused(subject: GuardSubject, why: string, cause?: unknown): InkpressError {
  const message = `${subject.field} ${why}`;
  return new InvalidFieldError(subject.field, message, message, { cause });
}
