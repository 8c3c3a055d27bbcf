import { GenerationService } from "../generation/service.js";
import type { Backend } from "../model/backend.js";
import type { WriteRow } from "./run.js";

/** Rows written in this process through the generation service, each on a sequence of the backend (a local model); no key, so no limits. */
export function localWriter(backend: Backend): WriteRow {
  const generations = new GenerationService({ modelHost: { backend, get: async () => backend } });
  return async (row, signal) => (await (await generations.admit(row.request.length)).write(row.request, { signal })).response;
}
