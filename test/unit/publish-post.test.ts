// What a post sent to a CMS is made of: its slug, its text fields as plain text, its HTML with
// only safe links. The CMS side (what WordPress stores) is test/external/publish-wordpress-trust.test.ts.
import { describe, expect, it } from "vitest";
import { articleOfMarkdown, plainText, postOf } from "../../src/publish/post.js";

describe("what a post is made of", () => {
  const article = (fields: Partial<Parameters<typeof postOf>[0]>) => ({
    title: "Kites in spring",
    metaDescription: "How kites fly.",
    slug: "kites",
    keywords: ["kites"],
    language: "en",
    markdown: "# Kites in spring\n\nA kite rises.\n",
    ...fields,
  });

  it("an article without a slug takes its title's, so two such files are two posts", () => {
    const one = articleOfMarkdown("---\ntitle: Kites in spring\n---\n\nA kite rises.\n", "blog").article;
    const two = articleOfMarkdown("# Frost on the allotment\n\nThe leeks held.\n", "blog").article;
    expect([one.slug, two.slug]).toEqual(["kites-spring", "frost-allotment"]);
    expect(articleOfMarkdown("---\ntitle: Kites\nslug: Spring Kites!\n---\n\nText.\n", "blog").article.slug).toBe("spring-kites");
  });

  it("sends every text field as plain text: tags and what scripts hold dropped, entities read; plain text byte for byte", () => {
    expect(plainText('<script>alert("x")</script>Kites <img src=x onerror=alert(1)> &amp; wind')).toBe("Kites & wind");
    expect(plainText("&lt;script&gt; in a title")).toBe("<script> in a title");
    expect(plainText("2 < 3 and  4 > 1")).toBe("2 < 3 and 4 > 1");
    expect(plainText("Kites  and wind")).toBe("Kites  and wind");
    const post = postOf(
      article({ title: "<b onmouseover=alert(1)>Kites</b> in spring", metaDescription: "How <script>x()</script>kites fly." }),
      { target: "blog", categories: ["<i>Guides</i>"], tags: ["<svg onload=alert(2)>", "wind"] },
      "draft",
    );
    expect([post.title, post.excerpt, post.categories, post.tags]).toEqual(["Kites in spring", "How kites fly.", ["Guides"], ["wind"]]);
    expect([post.status, post.statusChosen]).toEqual(["draft", false]);
    expect(postOf(article({}), { target: "blog", status: "publish" }, "draft").statusChosen).toBe(true);
    expect(() => postOf(article({ title: "<script>x()</script>" }), { target: "blog" }, "draft")).toThrow(
      /title: the article's title holds no text/,
    );
  });

  it("renders links only to http, https, mailto and relative addresses, and no raw HTML", () => {
    const markdown = [
      "# Kites",
      "",
      "[home](/kites) [site](https://example.com/a) [write](mailto:kites@example.com) [run](javascript:alert(1)) [data](data:text/html,x)",
      "",
      '<script>alert(2)</script> <img src="x" onerror="alert(3)">',
      "",
      'A kite <img src="x" onerror="alert(5)"> rises.',
      "",
      "![kite](javascript:alert(4)) ![ok](https://example.com/k.png)",
      "",
    ].join("\n");
    const { html } = postOf(article({ markdown }), { target: "blog" }, "draft");
    expect(html).toBe(
      [
        '<p><a href="/kites">home</a> <a href="https://example.com/a">site</a> <a href="mailto:kites@example.com">write</a> <a>run</a> <a>data</a></p>',
        "<p>A kite  rises.</p>",
        '<p><img alt="kite"> <img src="https://example.com/k.png" alt="ok"></p>',
      ].join("\n"),
    );
  });
});
