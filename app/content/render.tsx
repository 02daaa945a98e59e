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
import { readableColor } from "./contrast";
import { ALIGN_VALUES, HEX_COLOR, JUSTIFY_VALUES } from "./model";
import type { AccordionHeader, ContentElement } from "./schema";
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
  media?: MediaInfo;
  /** The first line of the first text element is the page's `<h1>` (the visitor page: the article's name). */
  heading?: boolean;
}

/** What the visitor page knows about the article's files beyond their address. */
export interface MediaInfo {
  /** Intrinsic width and height of an image, by its src. */
  sizes?: ReadonlyMap<string, { width: number; height: number }>;
  /** The subtitle track to play instead of the uploaded one (a translated track), by the uploaded src. */
  subtitles?: (src: string) => string;
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

/** The element's text style; its colour is adjusted when it would not be readable on the background. */
function textStyle(element: TextStyle, background: string): CSSProperties {
  const fontSize = bounded(element.fontSize, FONT_SIZE_MAX, DEFAULT_FONT_SIZE);
  const bold = element.bold === true;
  return {
    fontSize: `${fontSize}px`,
    fontWeight: bold ? 700 : undefined,
    fontStyle: element.italic === true ? "italic" : undefined,
    color: readableColor(hexColor(element.color, DEFAULT_TEXT_COLOR), background, fontSize, bold),
  };
}

// Staff align in the source's direction; "start"/"end" mirror the alignment for right-to-left readers.
const LOGICAL_ALIGN = { left: "start", center: "center", right: "end" } as const;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function blocksOf(value: unknown): string[] {
  return text(value)
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .filter((block) => block.trim() !== "");
}

function lineBroken(lines: readonly string[]): ReactNode[] {
  return lines.flatMap((line, lineIndex) => (lineIndex === 0 ? [line] : [<br key={lineIndex} />, line]));
}

/** Blank lines separate paragraphs; a single line break stays a line break. `heading`: line one is the h1. */
function paragraphs(value: unknown, heading = false): ReactNode[] {
  return blocksOf(value).flatMap((block, index) => {
    const lines = block.split("\n");
    if (!heading || index > 0) return [<p key={index}>{lineBroken(lines)}</p>];
    const first = lines.findIndex((line) => line.trim() !== "");
    const rest = lines.slice(first + 1);
    const title = (
      <h1 key="title" className="ml-title">
        {lines[first]!.trim()}
      </h1>
    );
    return rest.some((line) => line.trim() !== "") ? [title, <p key={index}>{lineBroken(rest)}</p>] : [title];
  });
}

/** A heading element's text as shown: one line, trimmed ("" shows nothing). */
export function headingText(element: ContentElement): string {
  return element.type === "heading" ? text(element.content).replace(/\s+/g, " ").trim() : "";
}

/**
 * The index of the element whose first line is the page's `<h1>`: the first text element with text, unless
 * a heading element comes before it (decision 074): the `<h1>` must come first in the outline, so such an
 * article gets the visually hidden `<h1>` and its headings follow it. -1 when there is none.
 */
export function headingIndex(content: readonly ContentElement[]): number {
  const index = content.findIndex((element) => (element.type === "text" && blocksOf(element.content).length > 0) || headingText(element) !== "");
  return index !== -1 && content[index]!.type === "text" ? index : -1;
}

/**
 * The tag of each heading element, by index: its level, except that a level never skips one after the
 * page's `<h1>` or the heading before it (a level 3 with no level 2 before it is an `<h2>`, styled as a 3).
 * So the document outline stays h1 → h2 → h3 whatever order the staff chose.
 */
export function headingTags(content: readonly ContentElement[]): Map<number, "h2" | "h3"> {
  const tags = new Map<number, "h2" | "h3">();
  let previous = 1;
  content.forEach((element, index) => {
    if (element.type !== "heading" || headingText(element) === "") return;
    const level = Math.min(element.level === 3 ? 3 : 2, previous + 1);
    tags.set(index, level === 3 ? "h3" : "h2");
    previous = level;
  });
  return tags;
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

function Image({ src, alt, className = "ml-media", media }: { src: string; alt: unknown; className?: string; media?: MediaInfo }) {
  const size = media?.sizes?.get(src);
  return <img className={className} src={src} alt={text(alt)} loading="lazy" decoding="async" width={size?.width} height={size?.height} />;
}

interface ElementProps {
  element: ContentElement;
  /** A heading element's tag in the outline (`headingTags`). */
  tag?: "h2" | "h3";
  /** This element's first line is the page's h1. */
  heading?: boolean;
  labels: ContentLabels;
  lang?: string;
  inAccordion: boolean;
  background: string;
  media?: MediaInfo;
}

function ElementView({ element, tag, heading, labels, lang, inAccordion, background, media }: ElementProps) {
  switch (element.type) {
    case "text": {
      const blocks = paragraphs(element.content, heading);
      if (blocks.length === 0) return null;
      const style = { ...textStyle(element, background), textAlign: LOGICAL_ALIGN[oneOf(ALIGN_VALUES, element.align, "left")] };
      return (
        <Row justify={element.justify} size={element.size} fill>
          <div className="ml-text" style={style}>
            {blocks}
          </div>
        </Row>
      );
    }
    case "heading": {
      const content = headingText(element);
      if (!content || inAccordion) return null;
      const Tag = tag ?? (element.level === 3 ? "h3" : "h2");
      const style = {
        // Checked as body-size text: a heading's colour reads at 4.5:1 or better at any zoom.
        color: readableColor(hexColor(element.color, DEFAULT_TEXT_COLOR), background, DEFAULT_FONT_SIZE, false),
        textAlign: LOGICAL_ALIGN[oneOf(ALIGN_VALUES, element.align, "left")],
      };
      return (
        <Tag className={`ml-heading ml-heading--${element.level === 3 ? 3 : 2}`} style={style}>
          {content}
        </Tag>
      );
    }
    case "image": {
      const src = safeMediaSrc(element.src);
      if (!src) return null;
      return (
        <Row justify={element.justify} size={element.size} fill>
          <Image src={src} alt={element.alt} media={media} />
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
            {subtitles && <track kind="subtitles" src={media?.subtitles?.(subtitles) ?? subtitles} srcLang={lang} label={labels.subtitles} default />}
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
          {src && <Image src={src} alt="" className="ml-link-image" media={media} />}
          {label && <span style={textStyle(element, background)}>{label}</span>}
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
          <Image src={src} alt={element.alt} media={media} />
        </div>
      );
      const caption = blocks.length > 0 && (
        <figcaption className="ml-text" style={textStyle(element, background)}>
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
          <summary style={textStyle(header, background)}>{text(header.content)}</summary>
          <div className="ml-accordion-body">
            {details.map((detail, index) => (
              <ElementView key={index} element={detail} labels={labels} lang={lang} inAccordion background={background} media={media} />
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
export function ArticleContentView({ content, labels = {}, lang, media, heading }: ViewProps) {
  const background = articleBackground(content);
  const titled = heading ? headingIndex(content) : -1;
  const tags = headingTags(content);
  return (
    <div className="ml-content">
      {content.map((element, index) => (
        <ElementView
          key={index}
          element={element}
          tag={tags.get(index)}
          heading={index === titled}
          labels={labels}
          lang={lang}
          inAccordion={false}
          background={background}
          media={media}
        />
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
