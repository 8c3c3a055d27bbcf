import { defineHandler } from "h3";
import { openApiDocument } from "../openapi.js";
import { docsPage } from "../pages/docs.js";
import type { Page } from "../pages/html.js";
import { playgroundPage } from "../pages/playground.js";

/** `GET /docs`: the API reference, rendered from the OpenAPI document. No key needed. */
export function docsRoute() {
  return pageRoute(() => docsPage(openApiDocument()));
}

/** `GET /`: the playground. No key needed (the person using it enters one). */
export function playgroundRoute() {
  return pageRoute(() => playgroundPage(openApiDocument()));
}

/** A page rendered on first use, then served from memory. */
function pageRoute(render: () => Page) {
  let page: Page | undefined;
  return defineHandler(() => {
    page ??= render();
    return new Response(page.markup, { headers: page.headers });
  });
}
