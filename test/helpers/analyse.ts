import { expect } from "vitest";
import { API_KEY } from "./server.js";

/** One check of an analysis, as the answer gives it. */
export type Check = { id: string; passed: boolean | null; message: string };
/** What the analysis tests read of an answer. */
export type Analysis = { title: { value: string } | null; seo: { score: number; checks: Check[] } };

/**
 * `POST /api/v1/analyse` through `fetchPath` (a server's fetch, in-process or over HTTP), in English
 * unless the body says otherwise, expecting a 200; and a check of an answer by id.
 */
export function analyser(fetchPath: (path: string, init: RequestInit) => Promise<Response>) {
  const analyse = async (body: object): Promise<Analysis> => {
    const response = await fetchPath("/api/v1/analyse", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({ language: "en", ...body }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Analysis;
  };
  const check = (analysis: Analysis, id: string) => analysis.seo.checks.find((c) => c.id === id)!;
  return { analyse, check };
}
