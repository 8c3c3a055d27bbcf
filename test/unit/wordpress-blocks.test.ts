import { describe, expect, it } from "vitest";
import { toBlocks } from "../../src/publish/blocks.js";

// The body a WordPress post gets: block markup the block editor opens as blocks, on HTML written here.

describe("a post body as WordPress block markup", () => {
  it("puts each element in its core block's delimiters, the HTML inside unchanged", () => {
    const html = '<h2>Why compost</h2>\n<p>Scraps <a href="https://example.com">rot</a> &amp; feed.</p>\n<h3>Bins</h3>\n<p>Two.</p>';
    expect(toBlocks(html)).toBe(
      [
        "<!-- wp:heading -->\n<h2>Why compost</h2>\n<!-- /wp:heading -->",
        '<!-- wp:paragraph -->\n<p>Scraps <a href="https://example.com">rot</a> &#x26; feed.</p>\n<!-- /wp:paragraph -->',
        '<!-- wp:heading {"level":3} -->\n<h3>Bins</h3>\n<!-- /wp:heading -->',
        "<!-- wp:paragraph -->\n<p>Two.</p>\n<!-- /wp:paragraph -->",
      ].join("\n\n"),
    );
  });

  it("makes lists of list-item blocks, a nested list a list block inside its item", () => {
    expect(toBlocks("<ol><li>One<ul><li>Inner</li></ul></li><li>Two</li></ol>")).toBe(
      '<!-- wp:list {"ordered":true} -->\n<ol>' +
        "<!-- wp:list-item -->\n<li>One<!-- wp:list -->\n<ul><!-- wp:list-item -->\n<li>Inner</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list --></li>\n<!-- /wp:list-item -->" +
        "<!-- wp:list-item -->\n<li>Two</li>\n<!-- /wp:list-item -->" +
        "</ol>\n<!-- /wp:list -->",
    );
  });

  it("gives quotes, tables, code and rules their blocks, and anything else a Custom HTML block, never a freeform one", () => {
    const blocks = toBlocks(
      "<blockquote><p>Said.</p></blockquote><table><tbody><tr><td>1</td></tr></tbody></table><pre><code>x</code></pre><hr><section><p>Note</p></section>loose",
    );
    expect(blocks).toContain(
      '<!-- wp:quote -->\n<blockquote class="wp-block-quote"><!-- wp:paragraph -->\n<p>Said.</p>\n<!-- /wp:paragraph --></blockquote>\n<!-- /wp:quote -->',
    );
    expect(blocks).toContain(
      '<!-- wp:table -->\n<figure class="wp-block-table"><table><tbody><tr><td>1</td></tr></tbody></table></figure>',
    );
    expect(blocks).toContain('<!-- wp:code -->\n<pre class="wp-block-code"><code>x</code></pre>\n<!-- /wp:code -->');
    expect(blocks).toContain("<!-- wp:separator -->");
    expect(blocks).toContain("<!-- wp:html -->\n<section><p>Note</p></section>\n<!-- /wp:html -->");
    expect(blocks).toContain("<!-- wp:paragraph -->\n<p>loose</p>\n<!-- /wp:paragraph -->");
    // Nothing outside a block's delimiters but the blank lines between blocks.
    expect(blocks.replace(/<!-- wp:(\S+)[^>]*-->[\s\S]*?<!-- \/wp:\1 -->/g, "").trim()).toBe("");
  });
});
