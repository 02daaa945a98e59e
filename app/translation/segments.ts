import type { AccordionDetail, ArticleContent, ContentElement } from "~/content/schema";

/**
 * The visitor-visible strings of an article (DESIGN §5): text, link labels, legend texts, accordion
 * headers and details, image and legend alt texts. Styles, URLs and layout never reach an engine.
 * Subtitle cues live in their .vtt files and are segmented from there. Empty and whitespace-only
 * strings are no segments; duplicates are kept once, in content order.
 */
export function articleSegments(content: ArticleContent): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (text: string | undefined) => {
    const normalized = (text ?? "").normalize("NFC");
    if (normalized.trim() === "" || seen.has(normalized)) return;
    seen.add(normalized);
    out.push(normalized);
  };
  const visit = (element: ContentElement | AccordionDetail) => {
    switch (element.type) {
      case "text":
      case "link":
        add(element.content);
        break;
      case "image":
        add(element.alt);
        break;
      case "legendItem":
        add(element.content);
        add(element.alt);
        break;
      case "accordion":
        add(element.header.content);
        element.details.forEach(visit);
        break;
      default:
        break;
    }
  };
  content.forEach(visit);
  return out;
}

/** The translation memory's key for a segment: SHA-256 (hex) of its NFC text. */
export async function segmentHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text.normalize("NFC")));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** KV keys of an article's rendered translations all start with this (decision 017). */
export const renderedTranslationPrefix = (articleId: number) => `tr:v1:${articleId}:`;
