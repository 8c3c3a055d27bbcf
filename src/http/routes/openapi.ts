import { defineHandler, type H3Event } from "h3";
import { openApiDocument } from "../openapi/document.js";
import { OPENAPI_PATH } from "../openapi/service.js";

/** `GET /api/v1/openapi.json`: the OpenAPI 3.1 document, no key needed. */
export function openApiRoute() {
  return defineHandler(() => openApiDocument());
}

/** The one public route under `/api/v1/`, which the key check lets through. */
export function isPublicApiRoute(event: H3Event): boolean {
  return event.url.pathname === OPENAPI_PATH && (event.req.method === "GET" || event.req.method === "HEAD");
}
