// One renderer for the editor's live preview and the visitor page (server-rendered, never hydrated): plain
// semantic markup, no hooks, no handlers. Stored data is not trusted here either: addresses, colours,
// sizes and alignments are checked again, so a damaged row can never inject a javascript: href or CSS.
import type { CSSProperties, ReactNode } from "react";

import {
  DEFAULT_BACKGROUND_COLOR,
  DEFAULT_FONT_SIZE,
  DEFAULT_LEGEND_WIDTH,
  DEFAULT_SIZE,
  DEFAULT_SPACE_HEIGHT,
  DEFAULT_TEXT_COLOR,
  FONT_SIZE_MAX,
  SIZE_MAX,
} from "./defaults";
import { ALIGN_VALUES, HEX_COLOR, JUSTIFY_VALUES, type AccordionHeader, type ContentElement } from "./schema";
import { linkDisplayText, safeLinkHref, safeMediaSrc } from "./urls";

/** Interface strings in the reader's language; each is left out when not given. */
export interface ContentLabels {
  /** Said (visually hidden) after a link that opens a new tab. */
  opensInNewTab?: string;
  /** Shown by browsers that cannot play the video. */
  videoUnsupported?: string;
  /** The subtitle track's name in the player's menu. */
  subtitles?: string;
}

interface ViewProps {
  content: readonly ContentElement[];
  labels?: ContentLabels;
  /** The content's language (BCP 47), for the subtitle track. */
  lang?: string;
}

type TextStyle = Pick<AccordionHeader, "fontSize" | "bold" | "italic" | "color">;

function bounded(value: unknown, max: number, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(max, Math.max(1, Math.round(value))) : fallback;
}

function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

function hexColor(value: unknown, fallback: string): string {
  return typeof value === "string" && HEX_COLOR.test(value) ? value : fallback;
}

function textStyle(element: TextStyle): CSSProperties {
  return {
    fontSize: `${bounded(element.fontSize, FONT_SIZE_MAX, DEFAULT_FONT_SIZE)}px`,
    fontWeight: element.bold === true ? 700 : undefined,
    fontStyle: element.italic === true ? "italic" : undefined,
    color: hexColor(element.color, DEFAULT_TEXT_COLOR),
  };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Blank lines separate paragraphs; a single line break stays a line break. */
function paragraphs(value: unknown): ReactNode[] {
  return text(value)
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .filter((block) => block.trim() !== "")
    .map((block, index) => (
      <p key={index}>{block.split("\n").flatMap((line, lineIndex) => (lineIndex === 0 ? [line] : [<br key={lineIndex} />, line]))}</p>
    ));
}

/** A full-width flex row placing one item of at most `size` percent. */
function Row({ justify, size, fill, children }: { justify: unknown; size: unknown; fill?: boolean; children: ReactNode }) {
  return (
    <div className="ml-row" style={{ justifyContent: oneOf(JUSTIFY_VALUES, justify, "flex-start") }}>
      <div className={fill ? "ml-item ml-fill" : "ml-item"} style={{ maxWidth: `${bounded(size, SIZE_MAX, DEFAULT_SIZE)}%` }}>
        {children}
      </div>
    </div>
  );
}

function Image({ src, alt, className = "ml-media" }: { src: string; alt: unknown; className?: string }) {
  return <img className={className} src={src} alt={text(alt)} loading="lazy" decoding="async" />;
}

function ElementView({ element, labels, lang, inAccordion }: { element: ContentElement; labels: ContentLabels; lang?: string; inAccordion: boolean }) {
  switch (element.type) {
    case "text": {
      const blocks = paragraphs(element.content);
      if (blocks.length === 0) return null;
      const style = { ...textStyle(element), textAlign: oneOf(ALIGN_VALUES, element.align, "left") };
      return (
        <Row justify={element.justify} size={element.size} fill>
          <div className="ml-text" style={style}>
            {blocks}
          </div>
        </Row>
      );
    }
    case "image": {
      const src = safeMediaSrc(element.src);
      if (!src) return null;
      return (
        <Row justify={element.justify} size={element.size} fill>
          <Image src={src} alt={element.alt} />
        </Row>
      );
    }
    case "video": {
      const src = safeMediaSrc(element.src);
      if (!src || inAccordion) return null;
      const subtitles = safeMediaSrc(element.subtitles);
      return (
        <Row justify={element.justify} size={element.size} fill>
          <video className="ml-media" src={src} controls preload="metadata" playsInline>
            {subtitles && <track kind="subtitles" src={subtitles} srcLang={lang} label={labels.subtitles} default />}
            {labels.videoUnsupported}
          </video>
        </Row>
      );
    }
    case "space":
      return <div className="ml-space" aria-hidden="true" style={{ height: `${bounded(element.size, SIZE_MAX, DEFAULT_SPACE_HEIGHT)}px` }} />;
    case "link": {
      const href = safeLinkHref(element.link);
      const src = safeMediaSrc(element.src);
      const label = text(element.content).trim() !== "" ? text(element.content) : href ? linkDisplayText(href) : "";
      if (!label && !src) return null;
      const inner = (
        <>
          {src && <Image src={src} alt="" className="ml-link-image" />}
          {label && <span style={textStyle(element)}>{label}</span>}
        </>
      );
      const newTab = href !== null && /^https?:/.test(href);
      return (
        <Row justify={element.justify} size={element.size}>
          {href ? (
            <a className="ml-link" href={href} target={newTab ? "_blank" : undefined} rel="noopener noreferrer">
              {inner}
              {newTab && labels.opensInNewTab && <span className="ml-visually-hidden"> ({labels.opensInNewTab})</span>}
            </a>
          ) : (
            <span className="ml-link">{inner}</span>
          )}
        </Row>
      );
    }
    case "legendItem": {
      const src = safeMediaSrc(element.src);
      const blocks = paragraphs(element.content);
      if (!src && blocks.length === 0) return null;
      const image = src && (
        <div className="ml-legend-image" style={{ width: `${bounded(element.width, SIZE_MAX, DEFAULT_LEGEND_WIDTH)}%` }}>
          <Image src={src} alt={element.alt} />
        </div>
      );
      const caption = blocks.length > 0 && (
        <figcaption className="ml-text" style={textStyle(element)}>
          {blocks}
        </figcaption>
      );
      const imageLast = element.justify === "flex-end";
      return (
        <Row justify="flex-start" size={element.size} fill>
          <figure className="ml-legend">
            {imageLast ? caption : image}
            {imageLast ? image : caption}
          </figure>
        </Row>
      );
    }
    case "accordion": {
      if (inAccordion) return null;
      const details = Array.isArray(element.details) ? element.details : [];
      const header = typeof element.header === "object" && element.header !== null ? element.header : ({} as AccordionHeader);
      return (
        <details className="ml-accordion">
          <summary style={textStyle(header)}>{text(header.content)}</summary>
          <div className="ml-accordion-body">
            {details.map((detail, index) => (
              <ElementView key={index} element={detail} labels={labels} lang={lang} inAccordion />
            ))}
          </div>
        </details>
      );
    }
    default:
      // metadatas is not rendered; an unknown type from bad stored data is skipped.
      return null;
  }
}

/** The article's elements, in order; the metadatas element is skipped. */
export function ArticleContentView({ content, labels = {}, lang }: ViewProps) {
  return (
    <div className="ml-content">
      {content.map((element, index) => (
        <ElementView key={index} element={element} labels={labels} lang={lang} inAccordion={false} />
      ))}
    </div>
  );
}

/** The first metadatas element's background colour, else the default (spec §4 "Live preview"). */
export function articleBackground(content: readonly ContentElement[]): string {
  const metadatas = content.find((element) => element.type === "metadatas");
  return hexColor(metadatas?.backgroundColor, DEFAULT_BACKGROUND_COLOR);
}

/** The article's page surface: its background colour, its language and direction. */
export function ArticleSurface({
  content,
  children,
  lang,
  dir,
  className,
}: {
  content: readonly ContentElement[];
  children: ReactNode;
  lang?: string;
  dir?: "ltr" | "rtl";
  className?: string;
}) {
  return (
    <div className={className ? `ml-surface ${className}` : "ml-surface"} style={{ backgroundColor: articleBackground(content) }} lang={lang} dir={dir}>
      {children}
    </div>
  );
}
