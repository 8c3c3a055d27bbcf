import dgram from "node:dgram";
import { describe, expect, it } from "vitest";
import { InkpressError, InvalidFieldError } from "../../src/errors.js";
import { asHttpError, problemBody } from "../../src/http/problem.js";
import { WebhookAddressGuard, dnsResolver, type HostResolver } from "../../src/net/address-guard.js";

// The SSRF guard of webhook URLs. Nothing here connects anywhere: IP literals need no DNS,
// `localhost` is loopback by definition (RFC 6761), and other names go to a made-up resolver.

/** A resolver answering from a table, as DNS would; unknown names fail as ENOTFOUND. */
function table(entries: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const found = entries[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

/** The error a refused URL raises: always an InvalidFieldError naming webhook.url. */
async function refusal(guard: WebhookAddressGuard, url: string): Promise<InvalidFieldError> {
  const error = await guard.check(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof InvalidFieldError)) throw new Error(`${url} was not refused as an invalid field (${String(error)})`);
  expect(error.field).toBe("webhook.url");
  return error;
}

describe("webhook address guard", () => {
  const guard = new WebhookAddressGuard();

  it.each([
    ["http://127.0.0.1/", /loopback/],
    ["http://127.8.9.10:8080/hook", /loopback/],
    ["http://10.1.2.3/", /private/],
    ["http://172.16.0.1/", /private/],
    ["http://172.31.255.254/", /private/],
    ["http://192.168.1.1/", /private/],
    ["http://169.254.169.254/latest/meta-data/", /metadata/],
    ["http://169.254.1.1/", /link-local/],
    ["http://100.64.0.1/", /carrier-grade NAT/],
    ["http://100.127.255.254/", /carrier-grade NAT/],
    ["http://0.0.0.0/", /unspecified/],
    ["http://255.255.255.255/", /broadcast/],
    ["http://224.0.0.1/", /multicast/],
    ["http://192.0.2.10/", /reserved/],
    ["http://240.0.0.1/", /reserved/],
    ["http://[::1]/", /loopback/],
    ["http://[::]/", /unspecified/],
    ["http://[fc00::1]/", /unique-local/],
    ["http://[fd12:3456::1]/", /unique-local/],
    ["http://[fd00:ec2::254]/", /metadata/],
    ["http://[fe80::1]/", /link-local/],
    ["http://[febf::1]/", /link-local/],
    ["http://[ff02::1]/", /multicast/],
    ["http://[::ffff:127.0.0.1]/", /loopback/],
    ["http://[::ffff:10.0.0.1]/", /private/],
    ["http://[::ffff:169.254.169.254]/", /metadata/],
    ["http://[::127.0.0.1]/", /IPv4-compatible/],
    ["http://[64:ff9b::7f00:1]/", /special-purpose/],
    // Other spellings of 127.0.0.1 that URL parsing turns into it.
    ["http://0x7f.0.0.1/", /loopback/],
    ["http://2130706433/", /loopback/],
    ["http://127.1/", /loopback/],
    ["https://017700000001/", /loopback/],
  ])("refuses %s", async (url, why) => {
    const error = await refusal(guard, url);
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/^webhook\.url (is|resolves to) /);
    expect(error.message).toMatch(why);
    expect(error.problem).toBe(error.message);
    // The HTTP layer answers it as a validation failure naming the field.
    expect(problemBody(asHttpError(error), "/v1/jobs")).toMatchObject({
      status: 422,
      detail: error.message,
      errors: [{ path: "webhook.url", message: error.message }],
    });
  });

  it("refuses a name resolving to loopback (localhost from the hosts file), without naming the address it found", async () => {
    const error = await refusal(guard, "http://localhost:3000/hook");
    expect(error.message).toMatch(/^webhook\.url resolves to a loopback address/);
    expect(error.message).not.toMatch(/127\.0\.0\.1|::1/);
    expect((await refusal(guard, "http://LOCALHOST./")).message).toMatch(/loopback/);
  });

  it("refuses a name when ANY of its addresses is private, whatever the order", async () => {
    const resolve = table({ "mixed.example": ["93.184.215.14", "10.0.0.7"], "internal.example": ["192.168.0.20"] });
    const dns = new WebhookAddressGuard({ resolve });
    expect((await refusal(dns, "https://mixed.example/hook")).message).toMatch(/private/);
    expect((await refusal(dns, "https://internal.example/hook")).message).toMatch(/private/);
    expect((await refusal(dns, "https://nowhere.example/")).message).toBe('webhook.url host "nowhere.example" does not resolve');
  });

  it("lets public addresses through and returns what to connect to", async () => {
    const resolve = table({ "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
    const dns = new WebhookAddressGuard({ resolve });
    const target = await dns.check("https://hooks.example.com/inkpress?x=1");
    expect(target.hostname).toBe("hooks.example.com");
    expect(target.url.href).toBe("https://hooks.example.com/inkpress?x=1");
    expect(target.addresses).toEqual([
      { address: "93.184.215.14", family: 4 },
      { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
    ]);
    expect((await guard.check("http://93.184.215.14:8080/")).addresses).toEqual([{ address: "93.184.215.14", family: 4 }]);
    expect((await guard.check("http://[2606:4700::6810:84e5]/")).addresses).toEqual([{ address: "2606:4700::6810:84e5", family: 6 }]);
    expect((await guard.check("http://8.8.8.8/")).hostname).toBe("8.8.8.8");
    // An IP literal needs no DNS at all.
    expect(resolve.calls).toEqual(["hooks.example.com"]);
  });

  it("refuses what is not a plain http(s) URL, naming webhook.url", async () => {
    for (const url of [
      "ftp://93.184.215.14/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "gopher://93.184.215.14/",
      "not a url",
      "//93.184.215.14/",
    ]) {
      expect((await refusal(guard, url)).message).toBe("webhook.url must be an absolute http:// or https:// URL");
    }
    expect((await refusal(guard, "http://user:pass@93.184.215.14/")).message).toBe("webhook.url must not carry a user name or password");
    expect((await refusal(guard, "https://user@93.184.215.14/")).message).toMatch(/user name or password/);
  });

  describe("the allow list", () => {
    it("by host name: that name passes whatever it resolves to, other names do not", async () => {
      const resolve = table({ "hooks.internal": ["10.0.0.5"], "other.internal": ["10.0.0.6"] });
      const allowed = new WebhookAddressGuard({ allow: ["Hooks.Internal.", "localhost"], resolve });
      expect((await allowed.check("http://hooks.internal:8080/hook")).addresses).toEqual([{ address: "10.0.0.5", family: 4 }]);
      expect((await refusal(allowed, "http://other.internal/")).message).toMatch(/private/);
      expect((await refusal(allowed, "http://10.0.0.5/")).message).toMatch(/private/);
      expect((await new WebhookAddressGuard({ allow: ["localhost"] }).check("http://localhost:9/")).addresses.length).toBeGreaterThan(0);
    });

    it("by address: the address passes however the URL spells it, neighbours do not", async () => {
      const allowed = new WebhookAddressGuard({ allow: ["127.0.0.1", "::1"] });
      for (const url of [
        "http://127.0.0.1:9/",
        "http://[::ffff:127.0.0.1]:9/",
        "http://2130706433:9/",
        "http://[::1]:9/",
        "http://[0:0::1]/",
      ]) {
        await expect(allowed.check(url)).resolves.toMatchObject({ url: new URL(url) });
      }
      expect((await refusal(allowed, "http://127.0.0.2/")).message).toMatch(/loopback/);
      const resolve = table({ "both.example": ["127.0.0.1", "127.0.0.2"] });
      const named = new WebhookAddressGuard({ allow: ["127.0.0.1"], resolve });
      expect((await refusal(named, "http://both.example/")).message).toMatch(/loopback/);
    });

    it("by CIDR range, IPv4 and IPv6, and names resolving into it", async () => {
      const resolve = table({ "svc.cluster.local": ["10.96.0.12"] });
      const allowed = new WebhookAddressGuard({ allow: ["10.0.0.0/8", "fd00::/8", "::ffff:192.168.0.0/112"], resolve });
      for (const url of [
        "http://10.0.0.1/",
        "http://10.255.255.255/",
        "http://[::ffff:10.1.1.1]/",
        "http://[fd12::1]/",
        "http://svc.cluster.local/",
        "http://192.168.3.4/",
      ]) {
        await expect(allowed.check(url)).resolves.toBeDefined();
      }
      expect((await refusal(allowed, "http://172.16.0.1/")).message).toMatch(/private/);
      expect((await refusal(allowed, "http://[fc00::1]/")).message).toMatch(/unique-local/);
      expect((await refusal(allowed, "http://169.254.169.254/")).message).toMatch(/metadata/);
    });

    it.each([
      "10.0.0.0/33",
      "10.0.0.0/",
      "/8",
      "999.0.0.0/8",
      "10.0.0.0/8/8",
      "not a host!",
      "http://hooks.example",
      "hooks.example:8080",
      "*.example.com",
      "::1/129",
      "-bad-.example",
      "user@hooks.example",
      "hooks.example?x",
      "hooks example",
    ])("refuses the invalid entry %j with an InkpressError naming it", (entry) => {
      const build = () => new WebhookAddressGuard({ allow: ["127.0.0.1", entry] });
      expect(build).toThrow(InkpressError);
      expect(build).toThrow(`webhook allow entry "${entry}" is not a host name, an IP address or a CIDR range such as 10.0.0.0/8`);
    });

    it("an international name matches its punycode form in URLs", async () => {
      const resolve = table({ "xn--bcher-kva.example": ["10.0.0.9"] });
      const allowed = new WebhookAddressGuard({ allow: ["bücher.example"], resolve });
      await expect(allowed.check("http://bücher.example/hook")).resolves.toMatchObject({ hostname: "xn--bcher-kva.example" });
    });

    it("ignores surrounding spaces", () => {
      expect(() => new WebhookAddressGuard({ allow: [" 127.0.0.1 ", " 10.0.0.0/8", "hooks.internal "] })).not.toThrow();
    });
  });

  it.each([
    ["its host", { allow: ["meta.example"] }],
    ["a range holding it", { allow: ["169.254.0.0/16", "100.64.0.0/10"] }],
    ["the address itself", { allow: ["169.254.169.254", "fd00:ec2::254", "100.100.100.200"] }],
  ])("refuses cloud metadata addresses even when the allow list names %s", async (_, options) => {
    const resolve = table({ "meta.example": ["169.254.169.254"] });
    const allowing = new WebhookAddressGuard({ ...options, resolve });
    for (const url of [
      "http://meta.example/latest",
      "http://169.254.169.254/",
      "http://[fd00:ec2::254]/",
      "http://100.100.100.200/",
      "http://[::ffff:169.254.169.254]/",
    ]) {
      if (url.includes("meta.example") && !options.allow.includes("meta.example")) continue;
      expect((await refusal(allowing, url)).message, url).toMatch(/cloud metadata address, which webhooks may never call/);
    }
  });

  it("refuses the server's own interface addresses, public ones included, unless the allow list names them", async () => {
    const ownAddresses = () => ["93.184.216.34", "2606:2800:220:1::1", "fe80::1%eth0"];
    const resolve = table({ "self.example": ["203.0.113.200", "93.184.216.34"] });
    const guard = new WebhookAddressGuard({ resolve, ownAddresses });
    expect((await refusal(guard, "http://93.184.216.34/hook")).message).toMatch(/is an address of this server's own/);
    expect((await refusal(guard, "http://[2606:2800:220:1::1]/hook")).message).toMatch(/is an address of this server's own/);
    expect((await refusal(guard, "http://[::ffff:93.184.216.34]/hook")).message).toMatch(/an address of this server's own/);
    await expect(
      new WebhookAddressGuard({ resolve, ownAddresses, allow: ["93.184.216.34"] }).check("http://93.184.216.34/"),
    ).resolves.toBeDefined();
    // The real interfaces by default: loopback is one of them.
    expect((await refusal(new WebhookAddressGuard(), "http://127.0.0.1/")).message).toMatch(/loopback/);
  });

  it("gives up on a DNS server that never answers after the deadline, with a 422 naming webhook.url", async () => {
    // A real c-ares resolver asking a UDP socket that swallows every query.
    const silent = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    try {
      const guard = new WebhookAddressGuard({ resolve: dnsResolver({ deadlineMs: 500, servers: [`127.0.0.1:${silent.address().port}`] }) });
      const started = performance.now();
      const error = await refusal(guard, "http://hooks.example/hook");
      expect(performance.now() - started).toBeLessThan(3000);
      expect(error.status).toBe(422);
      expect(error.message).toBe('webhook.url host "hooks.example" does not resolve in time');
    } finally {
      silent.close();
    }
  });

  it("resolves localhost as loopback without asking DNS", async () => {
    const addresses = await dnsResolver({ servers: ["127.0.0.1:9"] })("localhost");
    expect(addresses.map((a) => a.address)).toEqual(["127.0.0.1", "::1"]);
  });
});
