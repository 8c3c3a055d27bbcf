/** The Server-Sent Events reader the playground, the bench and the tests share. */
export * from "../../src/http/pages/client/sse.js";
