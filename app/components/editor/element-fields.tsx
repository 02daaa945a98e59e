// The fields of one content element in the article editor. The page around it owns the list (order,
// add, delete) and the preview; this only edits one element and hands back the next version of it.
import type { ContentElement } from "~/content/schema";
import { AccordionForm } from "./forms/accordion";
import { DetailFields } from "./forms/detail-fields";
import { HeadingForm } from "./forms/heading";
import { VideoForm } from "./forms/video";

export function ElementFields(props: {
  element: Exclude<ContentElement, { type: "metadatas" }>;
  onChange: (next: Exclude<ContentElement, { type: "metadatas" }>) => void;
  articleId: number;
  idPrefix: string;
}): JSX.Element {
  const { element, onChange, articleId, idPrefix } = props;
  const rest = { onChange, articleId, id: idPrefix };
  switch (element.type) {
    case "video":
      return <VideoForm element={element} {...rest} />;
    case "accordion":
      return <AccordionForm element={element} {...rest} />;
    case "heading":
      return <HeadingForm element={element} {...rest} />;
    default:
      // Every other type is one an accordion detail may be too: one dispatch for both.
      return <DetailFields element={element} {...rest} />;
  }
}
