import { describe, expect, it } from "vitest";
import { matrixRequest, matrixRules } from "../helpers/matrix.js";
import { VICUNA } from "../../scripts/ollama-stand-in-chat.js";
import { checkArticleRules } from "../helpers/rules.js";
import { ollamaStack } from "../helpers/ollama-stack.js";
import { HAS_STORIES_MODEL, STORIES_MODEL } from "../helpers/server.js";

// A model whose Ollama template is in none of the chat formats inkpress writes raw prompts in:
// inkpress writes through `/api/chat`, and Ollama applies the template. An Ollama STAND-IN
// (scripts/ollama-stand-in.ts) serves /api/chat's documented API over real HTTP and applies the
// model's template itself (Vicuna, a legacy template from Ollama's own index, run as Ollama runs
// one), backed by a real llama-server on stories260K so the text is real.

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the Ollama /api/chat suite needs ${STORIES_MODEL}, which is not there.`);

describe.skipIf(!HAS_STORIES_MODEL)(
  "inkpress → Ollama's /api/chat, a chat template inkpress does not know (a stand-in on llama-server)",
  () => {
    const stack = ollamaStack({ model: "vicuna-stories:latest", template: VICUNA });

    it("says it prompts in chat messages; /healthz reports it", async () => {
      expect(stack().inkpress.output()).toContain(
        `model vicuna-stories:latest loaded on Ollama at ${stack().ollama.url} (1 sequence; prompts as chat messages, in a chat template inkpress does not know)`,
      );
      const health = await (await fetch(`${stack().inkpress.url}/healthz`)).json();
      expect(health).toMatchObject({
        status: "ok",
        prompting: "chat-template",
        backend: { kind: "ollama", url: stack().ollama.url, state: "ok", prompts: "messages" },
      });
    });

    it("an article through /api/chat keeps the article rules and its report agrees with its Markdown; each step continues the answer so far, the outline's under format schemas", async () => {
      const c = { name: "sections, 300 words", structure: "sections", headingTags: true, length: 300, seed: 5201 } as const;
      stack().ollama.calls.length = 0;
      const response = await stack().inkpress.generate(matrixRequest(c));
      const text = await response.text();
      expect(response.status, text.slice(0, 400)).toBe(200);
      const answer = JSON.parse(text);
      const broken = checkArticleRules(answer, matrixRules(c));
      expect(broken, `breaks:\n  ${broken.join("\n  ")}`).toEqual([]);
      expect(answer.usage.promptTokens).toBeGreaterThan(0);

      const calls = stack().ollama.calls;
      expect(calls.length).toBeGreaterThan(3);
      for (const call of calls) expect(call.path).toBe("/api/chat");
      const messages = calls.map((call) => ("messages" in call.body ? call.body.messages : []));
      expect(messages[0]!.map((m) => m.content).join("\n")).toContain("Caring for indoor plants");
      // Every step sends the system and user turns, then the answer so far (forced text included) as the last assistant message,
      // and the model continues it where it ends: nothing of the template's comes after it.
      for (const [i, call] of calls.entries()) {
        const [system, user, ...answer] = messages[i]!;
        expect([system?.role, user?.role, ...answer.map((m) => m.role)]).toEqual([
          "system",
          "user",
          ...(answer.length ? ["assistant"] : []),
        ]);
        expect(call.prompt.endsWith(`\nASSISTANT: ${answer[0]?.content ?? ""}`), `step ${i}`).toBe(true);
      }
      expect(messages.at(-1)!.at(-1)!.content.length).toBeGreaterThan(500);
      const firstFree = calls.findIndex((call) => call.body.format === undefined);
      const outline = calls.slice(0, firstFree < 0 ? undefined : firstFree);
      expect(outline.length).toBeGreaterThan(2);
      for (const call of outline) expect(call.body.format).toMatchObject({ type: "string", pattern: expect.stringMatching(/^\^.*\$$/su) });
      for (const call of calls) expect(call.body.options).toMatchObject({ seed: expect.any(Number), num_predict: expect.any(Number) });
    });
  },
);
