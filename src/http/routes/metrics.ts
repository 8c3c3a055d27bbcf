import { defineHandler } from "h3";
import type { Metrics } from "../metrics.js";

/** `GET /metrics`, no key needed: Prometheus text exposition (counts and timings only, no secrets). */
export function metricsRoute(metrics: Metrics) {
  return defineHandler(() => metrics.exposition());
}
