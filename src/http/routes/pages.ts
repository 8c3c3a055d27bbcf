import { defineHandler, getRouterParam, type H3Event } from "h3";
import { openApiDocument } from "../openapi/document.js";
import { isScriptName, scriptSource } from "../pages/assets.js";
import { ORIGIN, docsPage } from "../pages/docs.js";
import { escapeHtml, type Page } from "../pages/html.js";
import { playgroundPage } from "../pages/playground.js";
import { problem } from "../problem.js";

/** `GET /docs`: the API reference, rendered from the OpenAPI document, its examples aimed at this origin. No key needed. */
export function docsRoute() {
  return pageRoute(
    () => docsPage(openApiDocument()),
    (markup, event) => markup.replaceAll(ORIGIN, escapeHtml(event.url.origin)),
  );
}

/** `GET /`: the playground. No key needed (the person using it enters one). */
export function playgroundRoute() {
  return pageRoute(() => playgroundPage(openApiDocument()));
}

/** `GET /assets/:file`: the pages' scripts (`playground.js`, …), compiled from their TypeScript. No key needed. */
export function assetRoute() {
  return defineHandler(async (event) => {
    const name = /^(.+)\.js$/.exec(getRouterParam(event, "file") ?? "")?.[1];
    const source = name && isScriptName(name) ? await scriptSource(name) : undefined;
    if (source === undefined) throw problem(404, "No such asset.");
    return new Response(source, {
      headers: { "content-type": "text/javascript; charset=utf-8", "x-content-type-options": "nosniff", "cache-control": "no-cache" },
    });
  });
}

/** A page rendered on first use, then served from memory, with what depends on the request filled in. */
function pageRoute(render: () => Page, personalise: (markup: string, event: H3Event) => string = (markup) => markup) {
  let page: Page | undefined;
  return defineHandler((event) => {
    page ??= render();
    return new Response(personalise(page.markup, event), { headers: page.headers });
  });
}
