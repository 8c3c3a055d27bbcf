/** How the inference server answers its health check. */
export type UpstreamState = "ok" | "unavailable" | "unreachable";

/** How to probe an inference server's health. */
export interface UpstreamHealthOptions {
  /**
   * Sent as `Authorization: Bearer <key>`.
   * @default undefined (no header)
   */
  key?: string;
  /**
   * Milliseconds a probe's answer is reused, so frequent health checks never load the server.
   * @default 5_000
   */
  ttlMs?: number;
  /**
   * The path probed.
   * @default "/health"
   */
  path?: string;
  /**
   * Milliseconds a probe may take before the server counts as unreachable.
   * @default 2_000
   */
  timeoutMs?: number;
}

/**
 * The inference server's state, for `/healthz`: one cheap `GET /health` (llama-server and vLLM
 * both serve it; llama-server answers 503 while it loads; Ollama's is `/api/version`), shared by every check within `ttlMs`.
 */
export class UpstreamHealth {
  private last: { at: number; state: Promise<UpstreamState> } | undefined;

  constructor(
    private readonly base: URL,
    private readonly options: UpstreamHealthOptions = {},
  ) {}

  /** "ok" (2xx), "unavailable" (an error status), or "unreachable" (no answer in time). */
  state(): Promise<UpstreamState> {
    const now = performance.now();
    if (!this.last || now - this.last.at > (this.options.ttlMs ?? 5_000)) this.last = { at: now, state: this.probe() };
    return this.last.state;
  }

  private async probe(): Promise<UpstreamState> {
    try {
      const response = await fetch(new URL(this.options.path ?? "/health", this.base), {
        headers: this.options.key ? { authorization: `Bearer ${this.options.key}` } : {},
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 2_000),
      });
      await response.body?.cancel();
      return response.ok ? "ok" : "unavailable";
    } catch {
      return "unreachable";
    }
  }
}
