import { Marked } from "marked";

// Our own files, but rendered as if they were not: raw HTML in a post is shown as text, so a slip in a
// Markdown file can never inject markup or script into the page.
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }) {
      return text.replace(/[<>&]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;" })[c] ?? c);
    },
  },
});

/** The post's body as HTML. The page's <h1> is the title, so the body's headings start at level 2. */
export function renderMarkdown(body: string): string {
  return marked.parse(body, { async: false });
}
