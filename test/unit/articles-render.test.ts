import { renderArticleHtml, sanitizeArticleHtml } from "../../services/articles/render";

const EXTERNAL_REL = 'rel="noopener noreferrer nofollow"';

/** Every element of the output, for assertions about what survived. */
const tags = (html: string) => [...html.matchAll(/<([a-z0-9]+)\b/gi)].map((m) => m[1].toLowerCase());

describe("article markdown rendering", () => {
  it("renders the markdown an article is made of", () => {
    const html = renderArticleHtml(
      [
        "# Title",
        "",
        "Some **bold**, _emphasis_, ~~struck~~ and `code`.",
        "",
        "## Section",
        "",
        "- one",
        "- two",
        "",
        "3. three",
        "",
        "> quoted",
        "",
        "| Plan | Price |",
        "|:-----|------:|",
        "| Basic | 10 |",
        "",
        "```ts",
        "const x = 1 < 2;",
        "```",
        "",
        "---",
      ].join("\n"),
    );
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<h2>Section</h2>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>emphasis</em>");
    expect(html).toContain("<s>struck</s>");
    expect(html).toContain("<code>code</code>");
    expect(html).toContain("<ul>\n<li>one</li>");
    expect(html).toContain('<ol start="3">');
    expect(html).toContain("<blockquote>");
    expect(html).toContain('<th style="text-align:left">Plan</th>');
    expect(html).toContain('<td style="text-align:right">10</td>');
    expect(html).toContain('<pre><code class="language-ts">const x = 1 &lt; 2;\n</code></pre>');
    expect(html).toContain("<hr />");
  });

  it("marks external links and leaves relative, anchor and mailto links alone", () => {
    const html = renderArticleHtml('[a](https://example.com/x "Source") [b](http://example.org) [c](/pricing) [d](#faq) [e](mailto:team@example.com)');
    expect(html).toContain(`<a href="https://example.com/x" title="Source" ${EXTERNAL_REL}>a</a>`);
    expect(html).toContain(`<a href="http://example.org" ${EXTERNAL_REL}>b</a>`);
    expect(html).toContain('<a href="/pricing">c</a>');
    expect(html).toContain('<a href="#faq">d</a>');
    expect(html).toContain('<a href="mailto:team@example.com">e</a>');
  });

  it("shows raw HTML as text: script, style, iframe, event handlers", () => {
    const html = renderArticleHtml(
      '<script>alert(1)</script>\n\n<style>body{display:none}</style>\n\n<iframe src="https://evil.example"></iframe>\n\n<img src=x onerror=alert(1)>\n\n<a href="https://x.example" onclick="steal()">y</a>',
    );
    expect(tags(html)).toEqual(["p", "p", "p", "p", "p"]);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toMatch(/<(script|style|iframe|img)/i);
    expect(html).not.toMatch(/<[^>]+\son\w+=/i);
  });

  it("refuses script and data URLs in links and images, whatever their spelling", () => {
    const html = renderArticleHtml(
      [
        "[a](javascript:alert(1))",
        "[b](JaVaScRiPt:alert(1))",
        "[c](vbscript:msgbox(1))",
        "[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "[e](&#106;avascript:alert(1))",
        "[f](//evil.example/path)",
        "![g](data:image/png;base64,iVBORw0KGgo=)",
        "![h](javascript:alert(1))",
        "![i](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)",
        "![ok](https://images.example/cover.png)",
        "![rel](/media/cover.png)",
      ].join("\n\n"),
    );
    expect(html).not.toMatch(/href="\s*(javascript|vbscript|data):/i);
    expect(html).not.toMatch(/src="\s*(javascript|data):/i);
    expect(html).not.toContain('href="//evil.example');
    const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    expect(images).toEqual(['<img src="https://images.example/cover.png" alt="ok" />', '<img src="/media/cover.png" alt="rel" />']);
  });

  it("does not let nested markdown smuggle a link target or an attribute", () => {
    const html = renderArticleHtml(
      [
        "[![x](https://i.example/a.png)](javascript:alert(1))",
        '[click](https://ok.example "x\\" onmouseover=\\"alert(1)")',
        "[a](<javascript:alert(1)>)",
        "[ref]\n\n[ref]: javascript:alert(1)",
        "**[b](javascript:alert(2))**",
        "`<script>alert(3)</script>`",
      ].join("\n\n"),
    );
    expect(html).not.toMatch(/href="\s*javascript:/i);
    expect(html).not.toMatch(/<[^>]+\son\w+="/i);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("<code>&lt;script&gt;alert(3)&lt;/script&gt;</code>");
    expect(html).toContain(`<a href="https://ok.example" title="x&quot; onmouseover=&quot;alert(1)" ${EXTERNAL_REL}>click</a>`);
  });
});

describe("article HTML sanitizer (the second fence, fed raw HTML)", () => {
  it("drops script, style, iframe, object and form elements with their content", () => {
    const html = sanitizeArticleHtml(
      '<p>a</p><script>alert(1)</script><style>p{}</style><iframe src="https://x.example"></iframe><object data="x"></object><form action="/x"><input name="q"></form><svg><script>1</script></svg><p>b</p>',
    );
    expect(html).toBe("<p>a</p><p>b</p>");
  });

  it("strips event handlers, inline styles and unknown attributes", () => {
    const html = sanitizeArticleHtml('<p onclick="x()" style="color:red" id="a">t</p><img src="https://i.example/a.png" onerror="x()" alt="a"><td style="text-align:left;background:url(javascript:x)">c</td>');
    expect(html).toBe('<p>t</p><img src="https://i.example/a.png" alt="a" /><td style="text-align:left">c</td>');
  });

  it("keeps links to http(s), mailto and relative targets only, and marks external ones", () => {
    const html = sanitizeArticleHtml(
      '<a href="javascript:alert(1)">j</a><a href=" JAVASCRIPT:alert(1)">k</a><a href="data:text/html,x">d</a><a href="https://e.example" rel="opener" target="_top">e</a><a href="/x">r</a><a href="mailto:a@b.example">m</a><a href="ftp://f.example">f</a>',
    );
    expect(html).toBe(
      '<a>j</a><a>k</a><a>d</a><a href="https://e.example" rel="noopener noreferrer nofollow">e</a><a href="/x">r</a><a href="mailto:a@b.example">m</a><a>f</a>',
    );
  });

  it("keeps images from http(s) and relative sources only, and drops an image left without one", () => {
    const html = sanitizeArticleHtml(
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="d"><img src="javascript:x" alt="j"><img src="//evil.example/a.png" alt="p"><img src="/media/a.png" alt="r"><img src="https://i.example/b.png" alt="h">',
    );
    expect(html).toBe('<img src="/media/a.png" alt="r" /><img src="https://i.example/b.png" alt="h" />');
  });
});

