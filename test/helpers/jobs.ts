import { setTimeout as sleep } from "node:timers/promises";
import type { Job } from "../../src/contract/job.js";

/** The jobs API of one server, as one key sees it; `request` reaches an in-process app instead of the network. */
export function jobsApi(url: string, key: string, request: (url: string, init: RequestInit) => Promise<Response> = fetch) {
  const call = (path: string, init: RequestInit = {}) =>
    request(`${url}/api/v1/jobs${path}`, {
      ...init,
      headers: { "x-api-key": key, ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
    });
  return {
    /** POST /api/v1/jobs. */
    submit: (body: unknown, headers: Record<string, string> = {}) => call("", { method: "POST", body: JSON.stringify(body), headers }),
    get: (id: string) => call(`/${id}`),
    cancel: (id: string) => call(`/${id}`, { method: "DELETE" }),
    list: (query = "") => call(query ? `?${query}` : ""),
    /** Submit and return the job, failing on anything but 202. */
    async create(body: unknown, headers: Record<string, string> = {}): Promise<Job> {
      const response = await this.submit(body, headers);
      if (response.status !== 202) throw new Error(`submit answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as Job;
    },
    /** Poll a job until `until` holds (by default: it has ended), within `timeoutMs`. */
    async waitFor(
      id: string,
      until: (job: Job) => boolean = (j) => ["succeeded", "failed", "cancelled"].includes(j.status),
      timeoutMs = 120_000,
    ): Promise<Job> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const response = await call(`/${id}`);
        if (response.status === 200) {
          const job = (await response.json()) as Job;
          if (until(job)) return job;
        } else if (response.status !== 503) {
          throw new Error(`GET job answered ${response.status}: ${await response.text()}`);
        }
        if (Date.now() > deadline) throw new Error(`job ${id} did not get there within ${timeoutMs} ms`);
        await sleep(200);
      }
    },
  };
}
