import { GenerationService } from "../generation/service.js";
import type { Backend } from "../model/backend.js";
import type { Publishing } from "../publish/publisher.js";
import type { WriteRow } from "./run.js";

/**
 * Rows written in this process through the generation service, each on a sequence of the backend (a local model); no key, so no limits.
 * Rows with `publish` are published to the operator's targets.
 */
export function localWriter(backend: Backend, publishing?: Publishing): WriteRow {
  const generations = new GenerationService({ modelHost: { backend, get: async () => backend }, ...(publishing ? { publishing } : {}) });
  return async (row, signal) => {
    const request = generations.accept(row.request);
    return (await (await generations.admit(request.length)).write(request, { signal })).response;
  };
}
