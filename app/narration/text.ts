import type { ArticleContent, ContentElement } from "~/content/schema";

/**
 * What a narration reads: the article's words as the visitor sees them, in page order (its first line,
 * headings, texts, legends, accordion headers and their texts), one paragraph per element. Images,
 * videos and links are not read. The page's text is the narration's transcript.
 */
export function narrationText(content: ArticleContent): string {
  const parts: string[] = [];
  const add = (text: string | undefined) => {
    const clean = (text ?? "")
      .replace(/\r\n?/g, "\n")
      .replace(/[ \t]+/g, " ")
      .trim();
    if (clean !== "") parts.push(clean);
  };
  const visit = (element: ContentElement | { type: string; content?: string }) => {
    switch (element.type) {
      case "text":
      case "heading":
      case "legendItem":
        add((element as { content: string }).content);
        break;
      case "accordion": {
        const accordion = element as Extract<ContentElement, { type: "accordion" }>;
        add(accordion.header.content);
        for (const detail of accordion.details) visit(detail);
        break;
      }
      default:
        break;
    }
  };
  for (const element of content) visit(element);
  return parts.join("\n\n");
}
